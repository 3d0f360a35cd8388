"""The screens of the terminal player: set-up, the table, hand-over, game over, replay."""

from __future__ import annotations

import asyncio
import dataclasses
import json
from pathlib import Path
from typing import TYPE_CHECKING, Any, ClassVar

from rich.console import Group, RenderableType
from rich.markdown import Markdown
from rich.table import Table as Grid
from rich.text import Text
from textual import events, on
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.screen import ModalScreen, Screen
from textual.widgets import (
    Button,
    Footer,
    Header,
    Input,
    Label,
    OptionList,
    RichLog,
    Select,
    Static,
)
from textual.widgets.option_list import Option

import tianxia
from tianxia.core import (
    JSON,
    Action,
    IllegalActionError,
    Match,
    NotationError,
    State,
    seat_name,
)
from tianxia.core.registry import game_class
from tianxia.play.table import STRENGTHS, SeatPlan, Table
from tianxia.tui.render import Context, context, generic, render
from tianxia.tui.render.common import seat_style
from tianxia.web.logforms import told

if TYPE_CHECKING:
    from tianxia.tui.app import TianxiaApp

SEAT_CHOICES = ["human", *STRENGTHS]
# The one file name load, save and the autosave propose.
DEFAULT_SAVE = "tianxia-game.json"
RULES = Path(__file__).resolve().parents[3] / "docs" / "rules"
HELP = """\
Choose an action with the arrow keys and Enter, or click it.
Type a move's notation: just start typing (or press /), Enter plays it,
Escape goes back to the list.

Ctrl-Z   undo your last action (the table's one rule: your own action,
         while you still decide, that revealed nothing; never past
         chance or another seat's decision)
Ctrl-S   save the match (one file name everywhere: tianxia-game.json)
Ctrl-Y   why did the last bot play what it played?
Ctrl-G   the final scores again, once the game is over
Ctrl-R   this game's rules (docs/rules/<game>.md)
F1       this help
Escape   back to the set-up screen (asks first, and saves the game)
Ctrl-Q   quit Tianxia (the game in progress is saved first)"""
# Keys of a final observation shown with the scores (besides any naming scores or a breakdown).
FINAL_KEYS = ("final", "result", "results", "winners", "winner", "all_money", "ended", "end")


def option_text(value: Any) -> str:
    """An option's value as the command line writes it: `on`/`off`, not True/False."""
    if isinstance(value, bool):
        return "on" if value else "off"
    return str(value)


def playable_games() -> list[str]:
    """The registered games, in the registry's order."""
    return tianxia.list_games()


def load_saved(path: str) -> Match:
    """A saved match, or a ValueError saying why the file cannot be used."""
    try:
        return Match.load(path)
    except OSError as e:
        raise ValueError(f"cannot read {path}: {e.strerror or e}") from e
    except json.JSONDecodeError as e:
        raise ValueError(f"{path} is not a saved game (bad JSON: {e.msg})") from e
    except (KeyError, TypeError, AttributeError) as e:
        raise ValueError(f"{path} is not a saved game (missing or bad field {e})") from e
    except (IllegalActionError, NotationError) as e:
        raise ValueError(f"{path} does not replay: {e}") from e
    except ValueError as e:
        raise ValueError(f"{path} is not a saved game this version can replay: {e}") from e


# One line of a log: seq (counting from 1), who decided (None: chance), the sentence as the
# viewer may read it, and whether the viewer reads it whole.
LogEntry = tuple[int, int | None, str, bool]


def log_entries(events: list[JSON], game: str = "") -> list[LogEntry]:
    """A seat's events (`Table.events_for`) of `game` as log lines."""
    # A Silk Road card played reads as in the browser's log: number, title and merchant;
    # its whole text is on the card (`LOG_FORMS`).
    return [(e["seq"], e["seat"], told(e["text"], game), e["action"] is not None) for e in events]


def log_line(
    seq: int, seat: int | None, text: str, whole: bool = True, cursor: bool = False
) -> Text:
    """One line of the game log: step and the sentence, its seat's name in its colour."""
    line = Text(f"{'▶' if cursor else ' '}{seq:>4} ", style="dim")
    who = "chance" if seat is None else seat_name(seat)
    style = seat_style(-1 if seat is None else seat)
    if text.startswith(who):
        line.append(who, style=style)
        text = text[len(who) :]
    else:
        line.append(f"{who}: ", style=style)
    line.append(text, style="dim" if seat is None or not whole else "")
    return line


def log_window(lines: list[LogEntry], cursor: int, around: int = 20) -> Text:
    """The log lines near `cursor` (a replay's step, counting from 0), the cursor's line marked."""
    lo = max(0, min(cursor - around, len(lines) - 2 * around))
    shown = lines[lo : lo + 2 * around + 1]
    return Text("\n").join(
        log_line(q, s, x, whole, cursor=q == cursor + 1) for q, s, x, whole in shown
    )


def final_scores(state: State, ctx: Context) -> RenderableType:
    """Scores and utilities per seat, with what the game publishes at the end: a value per
    seat becomes a column, a breakdown per seat its columns, anything else a named line."""
    obs = state.observation(None)
    extra: dict[str, list[Any]] = {}
    notes: list[Text] = []
    if isinstance(obs, dict):
        for key, value in obs.items():
            if key == "scores" or not ("breakdown" in key or "scor" in key or key in FINAL_KEYS):
                continue
            label = "how it ended" if key in ("end", "ended") else key.replace("_", " ")
            if isinstance(value, list) and len(value) == ctx.players:
                if all(isinstance(v, dict) for v in value):
                    for part in value[0]:
                        extra[part] = [v.get(part) for v in value]
                    continue
                if all(generic.is_scalar(v) for v in value):
                    extra[label] = value
                    continue
            if value is None or value == []:
                continue
            if key in ("winners", "winner"):
                seats = value if isinstance(value, list) else [value]
                notes.append(Text(f"{label}: " + ", ".join(ctx.name(w) for w in seats)))
            else:
                notes.append(Text.assemble(f"{label}: ", generic.inline(key, value, ctx)))
    t = Grid(title="Final scores", title_justify="left")
    t.add_column("seat")
    t.add_column("score", justify="right")
    t.add_column("result", justify="right")
    for label in extra:
        t.add_column(label, justify="right")
    scores, returns = state.scores(), state.returns()
    best = max(returns) if returns else 0.0
    for i in range(ctx.players):
        mark = " ★" if returns[i] == best else ""
        cells = [
            f"{column[i]:g}" if isinstance(column[i], float) else str(column[i])
            for column in extra.values()
        ]
        t.add_row(
            Text(ctx.name(i) + mark, style=seat_style(i)),
            f"{scores[i]:g}",
            f"{returns[i]:+.2f}",
            *cells,
        )
    return Group(t, *notes)


class PathPrompt(ModalScreen[str | None]):
    """Asks for a file name; Escape gives up."""

    BINDINGS: ClassVar[list[BindingType]] = [Binding("escape", "cancel", "Cancel")]

    def __init__(self, title: str, default: str = "") -> None:
        super().__init__()
        self.title_text = title
        self.default = default

    def compose(self) -> ComposeResult:
        with Vertical(classes="dialog"):
            yield Label(self.title_text)
            yield Input(value=self.default, id="path")
            saved = saved_files()
            if saved:
                yield Label("Saved games here (Tab, then Enter picks one):", classes="muted")
                yield OptionList(*[Option(name, id=name) for name in saved], id="files")
            with Horizontal(classes="buttons"):
                yield Button("OK", id="ok", variant="primary")
                yield Button("Cancel", id="cancel")

    @on(Input.Submitted, "#path")
    @on(Button.Pressed, "#ok")
    def done(self) -> None:
        text = self.query_one("#path", Input).value.strip()
        self.dismiss(text or None)

    @on(OptionList.OptionSelected, "#files")
    def picked(self, event: OptionList.OptionSelected) -> None:
        event.stop()
        self.dismiss(event.option.id)

    @on(Button.Pressed, "#cancel")
    def action_cancel(self) -> None:
        self.dismiss(None)


def saved_files(folder: Path | None = None, limit: int = 12) -> list[str]:
    """The JSON files of `folder` (the working folder), newest first: the file picker."""
    here = folder or Path.cwd()
    try:
        files = [p for p in here.glob("*.json") if p.is_file()]
    except OSError:
        return []
    files.sort(key=lambda p: p.stat().st_mtime, reverse=True)
    return [p.name for p in files[:limit]]


class Confirm(ModalScreen[bool]):
    """A yes/no question; Escape says no."""

    BINDINGS: ClassVar[list[BindingType]] = [Binding("escape", "no", "Stay")]

    def __init__(self, title: str, body: str, yes: str) -> None:
        super().__init__()
        self.title_text, self.body, self.yes = title, body, yes

    def compose(self) -> ComposeResult:
        with Vertical(classes="dialog"):
            yield Label(self.title_text, classes="dialog-title")
            yield Static(self.body)
            with Horizontal(classes="buttons"):
                yield Button(self.yes, id="yes", variant="warning")
                yield Button("Stay", id="no", variant="primary")

    def on_mount(self) -> None:
        self.query_one("#no", Button).focus()

    @on(Button.Pressed, "#yes")
    def action_yes(self) -> None:
        self.dismiss(True)

    @on(Button.Pressed, "#no")
    def action_no(self) -> None:
        self.dismiss(False)


class MessageScreen(ModalScreen[None]):
    """A titled text; any of Enter, Escape or the button closes it."""

    BINDINGS: ClassVar[list[BindingType]] = [Binding("escape,enter", "close", "Close")]

    def __init__(self, title: str, body: RenderableType) -> None:
        super().__init__()
        self.title_text = title
        self.body = body

    def compose(self) -> ComposeResult:
        with Vertical(classes="dialog"):
            yield Label(self.title_text, classes="dialog-title")
            yield Static(self.body, id="message-body")
            yield Button("Close", id="close", variant="primary")

    @on(Button.Pressed, "#close")
    def action_close(self) -> None:
        self.dismiss(None)


class HandOverScreen(ModalScreen[None]):
    """Covers the whole table so the seat leaving cannot see the next seat's hand."""

    BINDINGS: ClassVar[list[BindingType]] = [Binding("enter,space", "ready", "I am ready")]

    def __init__(self, seat: int) -> None:
        super().__init__()
        self.seat = seat

    def compose(self) -> ComposeResult:
        with Vertical(classes="dialog handover"):
            yield Label(
                Text(f"Pass the keyboard to {seat_name(self.seat)}", style=seat_style(self.seat)),
                classes="dialog-title",
            )
            yield Static("Everyone else looks away. Press Enter when you are ready.")
            yield Button(f"I am {seat_name(self.seat)}", id="ready", variant="primary")

    @on(Button.Pressed, "#ready")
    def action_ready(self) -> None:
        self.dismiss(None)


class SetupScreen(Screen[None]):
    """Choose the game, player count, options, seats and seed; or load a saved game."""

    BINDINGS: ClassVar[list[BindingType]] = [Binding("ctrl+s", "start", "Start")]

    def __init__(self) -> None:
        super().__init__()
        self.loaded: Match | None = None
        self._built = ""
        self._built_players = 0

    @property
    def tx(self) -> TianxiaApp:
        from tianxia.tui.app import TianxiaApp

        assert isinstance(self.app, TianxiaApp)
        return self.app

    def compose(self) -> ComposeResult:
        names = playable_games()
        preset = self.tx.preset
        game = preset.game if preset.game in names else names[0]
        yield Header()
        with VerticalScroll(id="setup"):
            yield Label("Game")
            yield Select(
                [(f"{game_class(n).TITLE} ({n})", n) for n in names],
                value=game,
                allow_blank=False,
                id="game",
            )
            yield Label("Players")
            yield Select([("2", 2)], value=2, allow_blank=False, id="players")
            yield Label("Options")
            yield Vertical(id="options")
            yield Label("Seats")
            yield Vertical(id="seats")
            yield Label("Seed (the same seed and the same moves give the same game)")
            yield Input(value=str(preset.seed), type="integer", id="seed")
            yield Static("", id="setup-message")
            with Horizontal(classes="buttons"):
                yield Button("Start", id="start", variant="primary")
                yield Button("Load saved game", id="load")
                yield Button("Replay saved game", id="replay")
                yield Button("Quit", id="quit")
        yield Footer()

    async def on_mount(self) -> None:
        self.title = "Tianxia"
        self.sub_title = "new game"
        await self.rebuild(self.query_one("#game", Select).value, self.tx.preset.players)
        self.query_one("#start", Button).focus()

    @on(Select.Changed, "#game")
    async def game_changed(self, event: Select.Changed) -> None:
        # The select also reports its first value once mounted; that game is laid out already.
        if self.loaded is None and event.value != self._built:
            await self.rebuild(event.value, None)

    @on(Select.Changed, "#players")
    async def players_changed(self, event: Select.Changed) -> None:
        players = self.query_one("#players", Select).value
        if self.loaded is None and isinstance(players, int) and players != self._built_players:
            game = self.query_one("#game", Select).value
            await self.rebuild(game, players, keep_players=True)

    async def rebuild(
        self,
        name: Any,
        players: int | None,
        keep_players: bool = False,
        options: dict[str, Any] | None = None,
    ) -> None:
        """Lay out the player count, options and seats of game `name`."""
        cls = game_class(str(name))
        self._built = str(name)
        preset = self.tx.preset
        if players is None or not cls.MIN_PLAYERS <= players <= cls.MAX_PLAYERS:
            players = cls.MIN_PLAYERS
        self._built_players = players
        if not keep_players:
            sel = self.query_one("#players", Select)
            with self.prevent(Select.Changed):
                sel.set_options([(str(n), n) for n in range(cls.MIN_PLAYERS, cls.MAX_PLAYERS + 1)])
                sel.value = players
        defaults = dict(cls(players).options)
        if options is None:
            options = {k: v for k, v in preset.options.items() if k in defaults}
        box = self.query_one("#options", Vertical)
        await box.remove_children()
        rows = []
        for spec in cls.OPTIONS:
            want = options.get(spec.name, defaults[spec.name])
            index = next((i for i, c in enumerate(spec.choices) if c == want), 0)
            rows.append(
                Horizontal(
                    Label(f"{spec.name}", classes="option-name"),
                    Select(
                        [(option_text(c), str(i)) for i, c in enumerate(spec.choices)],
                        value=str(index),
                        allow_blank=False,
                        id=f"opt-{spec.name}",
                    ),
                    Label(spec.help, classes="option-help"),
                    classes="option-row",
                )
            )
        if not rows:
            rows.append(Horizontal(Label("(this game has no options)")))
        await box.mount_all(rows)
        seats_box = self.query_one("#seats", Vertical)
        await seats_box.remove_children()
        plans = preset.seats
        seat_rows = []
        for i in range(players):
            plan = plans[i] if i < len(plans) else ("human" if i == 0 else "medium")
            seat_rows.append(
                Horizontal(
                    Label(seat_name(i), classes="option-name"),
                    Select(
                        [(c, c) for c in SEAT_CHOICES],
                        value=plan if plan in SEAT_CHOICES else "medium",
                        allow_blank=False,
                        id=f"seat-{i}",
                    ),
                    classes="option-row",
                )
            )
        await seats_box.mount_all(seat_rows)

    def say(self, text: str, error: bool = True) -> None:
        self.query_one("#setup-message", Static).update(
            Text(text, style="bold red" if error else "green")
        )

    def chosen(self) -> tuple[str, int, dict[str, Any], list[SeatPlan], int]:
        name = str(self.query_one("#game", Select).value)
        players = self.query_one("#players", Select).value
        assert isinstance(players, int)
        cls = game_class(name)
        options = {}
        for spec in cls.OPTIONS:
            value = self.query_one(f"#opt-{spec.name}", Select).value
            options[spec.name] = spec.choices[int(str(value))]
        seats = [
            SeatPlan.parse(str(self.query_one(f"#seat-{i}", Select).value)) for i in range(players)
        ]
        seed_text = self.query_one("#seed", Input).value.strip()
        try:
            seed = int(seed_text or "0")
        except ValueError:
            raise ValueError(f"the seed must be a whole number, not {seed_text!r}") from None
        return name, players, options, seats, seed

    @on(Button.Pressed, "#start")
    def action_start(self) -> None:
        try:
            name, players, options, seats, seed = self.chosen()
            match = self.loaded
            if match is None:
                match = Match(tianxia.load_game(name, players=players, **options), seed=seed)
            table = Table(match, seats, bot_seed=seed * 1009 + 17)
        except ValueError as e:
            self.say(str(e))
            return
        self.tx.push_screen(GameScreen(table, bot_delay=self.tx.bot_delay))
        if self.loaded is not None:
            # The loaded match now belongs to the table; coming back starts afresh.
            self.loaded = None
            for w in [self.query_one("#game"), self.query_one("#players"), self.query_one("#seed")]:
                w.disabled = False
            for w in self.query_one("#options").query(Select):
                w.disabled = False
            self.say("", False)

    @on(Button.Pressed, "#load")
    def ask_load(self) -> None:
        self.tx.push_screen(PathPrompt("Load a saved game from", DEFAULT_SAVE), self.load)

    async def load(self, path: str | None) -> None:
        if path is None:
            return
        try:
            match = load_saved(path)
        except ValueError as e:
            self.say(str(e))
            return
        await self.use_loaded(match, path)

    async def use_loaded(self, match: Match, path: str) -> None:
        """Fix game, players and options to the saved ones; the seats stay to choose."""
        self.loaded = None
        spec = match.game.spec()
        with self.prevent(Select.Changed):
            self.query_one("#game", Select).value = spec["game"]
        await self.rebuild(spec["game"], spec["players"], options=spec["options"])
        self.loaded = match
        for w in [self.query_one("#game"), self.query_one("#players"), self.query_one("#seed")]:
            w.disabled = True
        for w in self.query_one("#options").query(Select):
            w.disabled = True
        self.query_one("#seed", Input).value = str(match.seed)
        self.say(f"Continuing {path}: {len(match.log)} actions played. Choose the seats.", False)

    @on(Button.Pressed, "#replay")
    def ask_replay(self) -> None:
        self.tx.push_screen(PathPrompt("Replay a saved game from", DEFAULT_SAVE), self.replay)

    def replay(self, path: str | None) -> None:
        if path is None:
            return
        try:
            match = load_saved(path)
        except ValueError as e:
            self.say(str(e))
            return
        self.tx.push_screen(ReplayScreen(match))

    @on(Button.Pressed, "#quit")
    def quit(self) -> None:
        self.tx.exit()


# Below these sizes the side pane narrows and the log shortens, so that an 80x24
# terminal still shows a legible board.
WIDTH_BREAKPOINTS = [(0, "-narrow"), (110, "-wide")]
HEIGHT_BREAKPOINTS = [(0, "-short"), (36, "-tall")]


class GameScreen(Screen[None]):
    """The table: board, the decision with its legal actions, the log and the seats."""

    HORIZONTAL_BREAKPOINTS = WIDTH_BREAKPOINTS
    VERTICAL_BREAKPOINTS = HEIGHT_BREAKPOINTS

    BINDINGS: ClassVar[list[BindingType]] = [
        # Letters type a move (see `on_key`), so the commands sit on keys no notation uses.
        Binding("ctrl+z", "undo", "Undo"),
        Binding("ctrl+s", "save", "Save"),
        Binding("ctrl+y", "why", "Why?"),
        Binding("slash", "notation", "Type a move", show=False),
        Binding("ctrl+g", "game_over", "Scores", show=False),
        Binding("f1", "help", "Help"),
        Binding("ctrl+r", "rules", "Rules"),
        Binding("escape", "leave", "Menu"),
    ]

    def __init__(self, table: Table, bot_delay: float = 0.3) -> None:
        super().__init__()
        self.table = table
        self.bot_delay = bot_delay
        self.shown: int | None = None
        self._listed: State | None = None
        self._listed_actions: tuple[Action, ...] = ()
        self._over_shown = False
        self._logged: list[LogEntry] = []
        self._drawn: dict[str, Any] = {}
        self._handing_over = False
        self.message: RenderableType = ""

    def compose(self) -> ComposeResult:
        yield Header()
        with Horizontal(id="table"):
            with VerticalScroll(id="board-pane"):
                yield Static(id="board")
            with Vertical(id="side"):
                yield Static(id="seats")
                yield Static(id="prompt")
                yield OptionList(id="actions")
                yield Input(
                    placeholder="type a move (just start typing), Enter plays it",
                    id="notation",
                    select_on_focus=False,
                )
                yield Static(id="message")
        yield RichLog(id="log", wrap=False, markup=False, auto_scroll=True)
        yield Footer()

    def on_mount(self) -> None:
        game = self.table.game
        self.title = game.info.title
        self.sub_title = f"{game.players} players, seed {self.table.match.seed}"
        # Fixed heights: a part that may change its height costs a layout pass per move.
        self.query_one("#seats", Static).styles.height = game.players
        self.query_one("#prompt", Static).styles.height = 2
        self.query_one("#log", RichLog).border_title = "log"
        self.refresh_view()
        self.advance()

    # --- drawing ----------------------------------------------------------------
    def viewer(self) -> int | None:
        return self.table.viewer(self.shown)

    def refresh_view(self) -> None:
        s = self.table
        state = s.state
        viewer = self.viewer()
        ctx = context(s.game, viewer, over=state.is_terminal())
        my_turn = self.awaiting_human()
        if my_turn:
            ctx = dataclasses.replace(ctx, highlight=tuple(map(str, state.legal_actions())))
        obs = state.observation(viewer)
        if self.changed("board", (obs, ctx)):
            self.query_one("#board", Static).update(render(s.game.NAME, obs, ctx))
            who = "a spectator" if viewer is None else seat_name(viewer)
            self.query_one("#board-pane").border_title = f"the board as {who} sees it"
        if self.changed("seats", (s.to_move(), viewer)):
            self.query_one("#seats", Static).update(self.seats_table(viewer))
        self.refresh_log(log_entries(s.events_for(viewer), s.game.NAME))
        prompt = self.query_one("#prompt", Static)
        actions = self.query_one("#actions", OptionList)
        to_move = s.to_move()
        if not self.changed("prompt", (state, my_turn, s.can_undo() if my_turn else False)):
            pass
        elif state.is_terminal():
            prompt.styles.height = "auto"
            prompt.update(Group(Text("The game is over.", style="bold"), final_scores(state, ctx)))
        elif my_turn:
            n = len(state.legal_actions())
            prompt.update(
                Text.assemble(
                    (seat_name(to_move), seat_style(to_move)),
                    f" to decide: {n} legal action{'s' if n != 1 else ''}",
                    " (Ctrl-Z undoes)" if s.can_undo() else "",
                )
            )
        elif s.is_human(to_move):
            prompt.update(Text(f"Waiting for {seat_name(to_move)}", style="italic"))
        else:
            prompt.update(
                Text.assemble(
                    (seat_name(to_move), seat_style(to_move)), " (bot) is thinking…", style="italic"
                )
            )
        if my_turn and self._listed is not state:
            self._listed = state
            self._listed_actions = state.legal_actions()
            actions.set_options(
                Option(Text(str(a)), id=str(i)) for i, a in enumerate(self._listed_actions)
            )
            actions.highlighted = 0
            if not isinstance(self.focused, Input):
                actions.focus()
        elif not my_turn and actions.option_count:
            self._listed = None
            self._listed_actions = ()
            actions.clear_options()
        if self.changed("message", self.message):
            self.query_one("#message", Static).update(self.message)

    def changed(self, part: str, key: Any) -> bool:
        """Whether `part` must be drawn again; redrawing unchanged parts costs a layout pass."""
        if part in self._drawn and self._drawn[part] == key:
            return False
        self._drawn[part] = key
        return True

    def refresh_log(self, lines: list[LogEntry]) -> None:
        """Append the new lines; rewrite the log only when earlier lines changed (undo,
        the end revealing hidden lines, another viewer in hotseat)."""
        log = self.query_one("#log", RichLog)
        n = len(self._logged)
        if lines[:n] != self._logged:
            log.clear()
            n = 0
        for line in lines[n:]:
            log.write(log_line(*line))
        self._logged = lines

    def seats_table(self, viewer: int | None) -> Grid:
        s = self.table
        t = Grid.grid(padding=(0, 1))
        to_move = s.to_move()
        for i, plan in enumerate(s.seats):
            you = " (you)" if viewer == i else ""
            t.add_row(
                "▶" if i == to_move else " ",
                Text(seat_name(i), style=seat_style(i)),
                plan.label() + you,
            )
        return t

    def awaiting_human(self) -> bool:
        s = self.table
        if not s.human_to_move() or self._handing_over:
            return False
        return not s.hotseat or self.shown == s.to_move()

    def say(self, message: RenderableType) -> None:
        self.message = message
        if self.changed("message", message):
            self.query_one("#message", Static).update(message)

    # --- the flow of play ---------------------------------------------------------
    def advance(self) -> None:
        """Hand the decision to whoever is next: a bot thinks, a person gets the screen."""
        s = self.table
        if s.state.is_terminal():
            if not self._over_shown:
                self._over_shown = True
                self.action_game_over()
            return
        if s.bot_to_move():
            self.run_worker(self.bot_move(s.state), group="bot", exit_on_error=False)
        elif s.hotseat and self.shown != s.to_move() and not self._handing_over:
            seat = s.to_move()
            self._handing_over = True
            self.shown = None
            self.message = ""
            self.refresh_view()
            self.app.push_screen(HandOverScreen(seat), lambda _: self.handed_over(seat))

    def handed_over(self, seat: int) -> None:
        self._handing_over = False
        self.shown = seat
        self.refresh_view()

    async def bot_move(self, state: State) -> None:
        s = self.table
        seat = state.current_player()
        if self.bot_delay:
            await asyncio.sleep(self.bot_delay)
        if s.state is not state:
            return
        try:
            state, action, why = await asyncio.to_thread(s.bot_choice, seat)
        except Exception as e:
            # A failing bot must not take the game down: the position stays, and saving
            # it keeps the case.
            self.say(Text(f"{seat_name(seat)}'s bot failed: {e!r}. Save the game (Ctrl-S).", "red"))
            return
        if s.play_bot(seat, state, action, why):
            # Without a pause between bot moves nobody could follow them, so the table is
            # drawn only once the bots are through.
            if self.bot_delay or not s.bot_to_move():
                self.refresh_view()
            self.advance()

    def play(self, action: Action | str) -> bool:
        """A person's move: refused moves show their rule and reason and change nothing."""
        if not self.awaiting_human():
            self.say(Text("It is not your turn to decide.", style="yellow"))
            return False
        try:
            a = self.table.play(action)
        except IllegalActionError as e:
            self.say(
                Text.assemble(("Refused", "bold red"), f" — rule {e.rule}: ", (e.reason, "red"))
            )
            return False
        except NotationError as e:
            self.say(Text.assemble(("Not a move", "bold red"), f": {e.text!r} — {e.reason}"))
            return False
        self.message = Text(f"Played {a}", style="green")
        if self.bot_delay or not self.table.bot_to_move():
            self.refresh_view()
        self.advance()
        return True

    @on(OptionList.OptionSelected, "#actions")
    def chosen(self, event: OptionList.OptionSelected) -> None:
        event.stop()
        if self._listed is self.table.state and event.option_index < len(self._listed_actions):
            self.play(self._listed_actions[event.option_index])

    @on(OptionList.OptionHighlighted, "#actions")
    def highlighted(self, event: OptionList.OptionHighlighted) -> None:
        if self._listed is self.table.state and event.option_index < len(self._listed_actions):
            a = self._listed_actions[event.option_index]
            self.say(Text(self.table.state.explain(a), style="dim"))

    @on(Input.Submitted, "#notation")
    def typed(self, event: Input.Submitted) -> None:
        if self.play(event.value) or not event.value.strip():
            event.input.value = ""
            self.query_one("#actions", OptionList).focus()

    # --- keys -------------------------------------------------------------------------
    def on_key(self, event: events.Key) -> None:
        """A letter or digit typed on the table starts typing a move, never a command."""
        if isinstance(self.focused, Input) or not self.awaiting_human():
            return
        ch = event.character
        if ch is None or not event.is_printable or ch in "/ ":
            return
        box = self.query_one("#notation", Input)
        box.focus()
        box.insert_text_at_cursor(ch)
        event.stop()
        event.prevent_default()

    def action_notation(self) -> None:
        if self.awaiting_human():
            self.query_one("#notation", Input).focus()

    def action_undo(self) -> None:
        if self._handing_over:
            return
        try:
            a = self.table.undo()
        except IllegalActionError as e:
            self.say(Text(e.reason, style="yellow"))
            return
        self.message = Text(f"Took back {a}", style="yellow")
        self.refresh_view()

    def action_why(self) -> None:
        last = self.table.last_explanation()
        if last is None:
            self.say(Text("No bot has moved yet.", style="yellow"))
            return
        seat, index, text = last
        event = self.table.events_for(self.viewer(), since=index)[0]
        move = event["action"] or event["text"]
        self.app.push_screen(MessageScreen(f"Why did {seat_name(seat)} play {move}?", text))

    def action_save(self) -> None:
        self.app.push_screen(
            PathPrompt("Save the game (the match log) to", DEFAULT_SAVE), self.save
        )

    def save(self, path: str | None) -> None:
        if path is None:
            return
        try:
            self.table.save(path)
        except OSError as e:
            self.say(Text(f"Not saved: cannot write {path}: {e.strerror or e}", style="red"))
            return
        self.say(Text(f"Saved to {Path(path)}", style="green"))

    def action_game_over(self) -> None:
        state = self.table.state
        if state.is_terminal():
            ctx = context(self.table.game, None, over=True)
            self.app.push_screen(MessageScreen("Game over", final_scores(state, ctx)))

    def action_help(self) -> None:
        self.app.push_screen(MessageScreen("Keys", Text(HELP)))

    def action_rules(self) -> None:
        name = self.table.game.NAME
        path = RULES / f"{name}.md"
        try:
            body: RenderableType = Markdown(path.read_text(encoding="utf-8"))
        except OSError:
            body = Text(f"The rules of {name} are in docs/rules/{name}.md (not found here).")
        self.app.push_screen(MessageScreen(f"Rules: {self.table.game.info.title}", body))

    def autosave(self, path: str = DEFAULT_SAVE) -> Path | None:
        """Write the game in progress to `path`; None when there is nothing to keep."""
        if not self.table.match.log:
            return None
        try:
            self.table.save(path)
        except OSError:
            return None
        return Path(path)

    def action_leave(self) -> None:
        """Back to the set-up screen; a game in progress is left only when confirmed, and
        saved first."""
        if isinstance(self.focused, Input):
            self.focused.value = ""
            self.query_one("#actions", OptionList).focus()
            return
        if self.table.state.is_terminal() or not self.table.match.log:
            self.app.pop_screen()
            return
        self.app.push_screen(
            Confirm(
                "Leave this game?",
                f"It is saved to {DEFAULT_SAVE}; Load saved game continues it.",
                "Save and leave",
            ),
            self.left,
        )

    def left(self, sure: bool | None) -> None:
        if not sure:
            return
        path = self.autosave()
        self.app.pop_screen()
        setup = self.app.screen
        if path is not None and isinstance(setup, SetupScreen):
            setup.say(f"Saved the game to {path}", error=False)


class ReplayScreen(Screen[None]):
    """A saved game step by step, from any seat's view or a spectator's."""

    HORIZONTAL_BREAKPOINTS = WIDTH_BREAKPOINTS
    VERTICAL_BREAKPOINTS = HEIGHT_BREAKPOINTS

    BINDINGS: ClassVar[list[BindingType]] = [
        # Before the board pane's own keys: a board taller than the screen scrolls, and
        # would take Home and End for itself.
        Binding("right,n", "step(1)", "Next", priority=True),
        Binding("left,p", "step(-1)", "Back", priority=True),
        Binding("home", "jump(0)", "Start", priority=True),
        Binding("end", "jump(-1)", "End", priority=True),
        Binding("v", "viewpoint", "Viewpoint"),
        Binding("escape,q", "leave", "Menu"),
    ]

    def __init__(self, match: Match) -> None:
        super().__init__()
        self.match = match
        self.step = 0
        self.viewer: int | None = None
        self._lines: dict[int | None, list[LogEntry]] = {}

    def compose(self) -> ComposeResult:
        yield Header()
        with Horizontal(id="table"):
            with VerticalScroll(id="board-pane"):
                yield Static(id="board")
            with VerticalScroll(id="side"):
                yield Static(id="replay-status")
                yield Static(id="log")
        yield Footer()

    def on_mount(self) -> None:
        self.title = f"Replay: {self.match.game.info.title}"
        self.refresh_view()

    def refresh_view(self) -> None:
        m = self.match
        state = m.history[self.step]
        ctx = context(m.game, self.viewer, over=state.is_terminal())
        self.query_one("#board", Static).update(
            render(m.game.NAME, state.observation(self.viewer), ctx)
        )
        who = "spectator" if self.viewer is None else seat_name(self.viewer)
        status = Text(f"Step {self.step} of {len(m.log)}, seen by {who}.\n", style="bold")
        if self.step < len(m.log):
            seat = m.seat_of(self.step)
            status.append("Next: ")
            status.append(seat_name(seat), style=seat_style(seat))
            status.append(f" {m.log[self.step]}")
        else:
            status.append("The end of the record.")
        parts: list[RenderableType] = [status]
        if state.is_terminal():
            parts.append(final_scores(state, ctx))
        self.query_one("#replay-status", Static).update(Group(*parts))
        self.query_one("#log", Static).update(log_window(self.lines(), self.step))

    def lines(self) -> list[LogEntry]:
        """The record as the chosen viewer reads it (a finished game shows every line)."""
        key = self.viewer
        if key not in self._lines:
            self._lines[key] = log_entries(self.match.events_for(self.viewer), self.match.game.NAME)
        return self._lines[key]

    def action_step(self, delta: int) -> None:
        self.step = max(0, min(len(self.match.log), self.step + delta))
        self.refresh_view()

    def action_jump(self, where: int) -> None:
        self.step = len(self.match.log) if where < 0 else where
        self.refresh_view()

    def action_viewpoint(self) -> None:
        n = self.match.game.players
        self.viewer = (
            0 if self.viewer is None else (None if self.viewer + 1 >= n else self.viewer + 1)
        )
        self.refresh_view()

    def action_leave(self) -> None:
        self.app.pop_screen()
