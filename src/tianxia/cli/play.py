"""`tianxia play GAME`: a plain text loop at the shared table, seats human or bot.

The board is drawn by the terminal player's renderers (`--json` prints the observation
instead). At a person's prompt (`P1>`) type an action's notation, its number in the
printed list, or one of the words: `list`, `board`, `log`, `why` (the last bot move's
explanation), `explain <action>`, `undo` (the table's one undo rule: see docs/engine.md),
`save <file>`, `help`, `quit`. Before each prompt the seat reads the events since its last
one, as the engine tells them to that seat. Ctrl-D, Ctrl-C and `quit` end the game there
and write the `--save` file if one is named.
"""

from __future__ import annotations

import difflib
import json
from typing import Any

import typer
from rich.console import Console
from rich.table import Table as Grid
from rich.text import Text

import tianxia
from tianxia import bots
from tianxia.cli.app import app
from tianxia.cli.common import bot_policy, load
from tianxia.core import Game, IllegalActionError, Match, NotationError, State, seat_name
from tianxia.play.table import STRENGTHS, SeatPlan, Table

WORDS = (
    "list: the legal actions, numbered\n"
    "board: draw the board again\n"
    "log: the game's log as you may read it\n"
    "why: the last bot move's explanation\n"
    "explain <action>: whether an action is legal now, and why\n"
    "undo: take back your last action (the table's one undo rule)\n"
    "save <file>: write the match to a file\n"
    "quit (or Ctrl-D, Ctrl-C): stop here, saving to --save if given"
)


def _default_game() -> str:
    names = tianxia.list_games()
    if not names:
        raise typer.BadParameter("no game is registered")
    return names[0]


def seat_plans(game: Game, seats: str) -> tuple[list[SeatPlan], dict[int, str]]:
    """Plans from `--seats`, and the seats played by a named bot rather than a strength."""
    kinds = [s.strip().lower() for s in seats.split(",")] if seats else []
    kinds += [
        "human" if i == 0 and not kinds else "random" for i in range(len(kinds), game.players)
    ]
    if len(kinds) != game.players:
        raise typer.BadParameter(
            f"{game.NAME} with {game.players} players needs {game.players} seats, not {len(kinds)}"
        )
    plans: list[SeatPlan] = []
    named: dict[int, str] = {}
    for seat, kind in enumerate(kinds):
        if kind == "human":
            plans.append(SeatPlan("human"))
        elif kind.removeprefix("bot:") in STRENGTHS:
            plans.append(SeatPlan("bot", kind.removeprefix("bot:")))
        elif kind in bots.available():
            plans.append(SeatPlan("bot", "random"))
            named[seat] = kind
        else:
            raise typer.BadParameter(
                f"a seat is 'human', a strength ({', '.join(STRENGTHS)}) or a bot "
                f"({', '.join(bots.available())}), not {kind!r}"
            )
    return plans, named


def plural(n: int, noun: str) -> str:
    """`1 legal action`, `2 legal actions`."""
    return f"{n} {noun}{'' if n == 1 else 's'}"


def closest(text: str, state: State, n: int = 3) -> list[str]:
    """The legal actions written most like `text`."""
    legal = [str(a) for a in state.legal_actions()]
    found = difflib.get_close_matches(text, legal, n=n, cutoff=0.5)
    if not found:
        low = text.lower()
        found = [a for a in legal if low and (low in a.lower() or a.lower() in low)][:n]
    return found


def refusal(text: str, state: State, error: Exception) -> Text:
    """`refused 'text': rule X: why`, and the closest legal actions."""
    out = Text.assemble(("refused ", "bold red"), (repr(text), "bold"), ": ")
    if isinstance(error, IllegalActionError):
        out.append(f"rule {error.rule}: ", style="red")
        out.append(error.reason)
    elif isinstance(error, NotationError):
        out.append("not an action of this game", style="red")
        out.append(f" ({error.reason})")
    else:
        out.append(str(error))
    near = closest(text, state)
    n = len(state.legal_actions())
    if near:
        out.append(f"\n  closest legal actions: {', '.join(near)}")
    else:
        out.append(f"\n  `list` shows the {plural(n, 'legal action')}")
    return out


class TextTable:
    """The table seen through a plain terminal: prints the board, the log and prompts."""

    def __init__(self, table: Table, console: Console, as_json: bool, save: str) -> None:
        self.table = table
        self.console = console
        self.as_json = as_json
        self.save_to = save
        self.printed = 0  # seq of the last log line printed

    def viewer(self) -> int | None:
        return self.table.viewer(self.table.to_move())

    def show_board(self, viewer: int | None) -> None:
        t = self.table
        if self.as_json:
            self.console.print_json(json.dumps(t.state.envelope(viewer, t.seq)))
            return
        from tianxia.tui.render import context, render

        ctx = context(t.game, viewer, over=t.state.is_terminal())
        self.console.print(render(t.game.NAME, t.state.observation(viewer), ctx))

    def show_actions(self) -> None:
        for i, a in enumerate(self.table.state.legal_actions()):
            self.console.print(f"  [bold]{i:>3}[/bold]  {a}", highlight=False)

    def show_log(self, viewer: int | None, since: int = 0) -> None:
        from tianxia.web.logforms import told

        for e in self.table.events_for(viewer, since):
            line = told(e["text"], self.table.game.NAME)
            self.console.print(f"{e['seq']:>4}  {line}", highlight=False)

    def catch_up(self) -> None:
        """Print the log lines not printed yet, as the seat at the keyboard may read them."""
        viewer = self.viewer()
        self.show_log(viewer, self.printed)
        self.printed = self.table.seq

    def run(self) -> None:
        t = self.table
        while not t.state.is_terminal():
            seat = t.to_move()
            if t.bot_to_move():
                state, a, why = t.bot_choice(seat)
                t.play_bot(seat, state, a, why)
                continue
            self.catch_up()
            if not self.turn(seat):
                return
        self.catch_up()

    def turn(self, seat: int) -> bool:
        """One decision of the person at `seat`; False when they stop the game."""
        t = self.table
        self.show_board(seat)
        n = len(t.state.legal_actions())
        self.console.print(
            f"[bold]{seat_name(seat)}[/bold] to decide: {plural(n, 'legal action')}"
            + (" (undo takes back your last)" if t.can_undo(seat) else "")
        )
        self.show_actions()
        while True:
            try:
                text = input(f"{seat_name(seat)}> ").strip()
            except (EOFError, KeyboardInterrupt):
                self.console.print("\ninput ended; the game stops here")
                return False
            if not text:
                continue
            word, _, rest = text.partition(" ")
            rest = rest.strip()
            if word == "quit":
                return False
            if word == "help":
                self.console.print(WORDS, highlight=False)
            elif word == "list":
                self.show_actions()
            elif word == "board":
                self.show_board(seat)
            elif word == "log":
                self.show_log(seat)
            elif word == "why":
                last = t.last_explanation()
                self.console.print(
                    f"{seat_name(last[0])}: {last[2]}" if last else "no bot has moved yet"
                )
            elif word == "explain" and rest:
                self.console.print(t.state.explain(rest), highlight=False)
            elif word == "undo":
                try:
                    a = t.undo(seat)
                except IllegalActionError as e:
                    self.console.print(f"[yellow]cannot undo[/yellow]: rule {e.rule}: {e.reason}")
                    continue
                self.printed = min(self.printed, t.seq)
                self.console.print(f"took back {a}")
                return True
            elif word == "save" and rest:
                self.write(rest)
            elif self.act(seat, text):
                return True

    def act(self, seat: int, text: str) -> bool:
        t = self.table
        state = t.state
        legal = state.legal_actions()
        if text.isdigit():
            if int(text) >= len(legal):
                why = f": {plural(len(legal), 'legal action')}, numbered 0 to {len(legal) - 1}"
                self.console.print(
                    Text.assemble(("refused ", "bold red"), (repr(text), "bold"), why),
                    soft_wrap=True,
                )
                return False
            text = str(legal[int(text)])
        try:
            t.play(text, seat)
        except (IllegalActionError, NotationError) as e:
            self.console.print(refusal(text, state, e), soft_wrap=True)
            return False
        return True

    def write(self, path: str) -> None:
        try:
            self.table.save(path)
        except OSError as e:
            self.console.print(f"[red]not saved[/red]: cannot write {path}: {e.strerror or e}")
            return
        self.console.print(f"saved to {path}")

    def finish(self) -> None:
        state = self.table.state
        if state.is_terminal():
            self.console.print("[bold]The game is over.[/bold]")
            self.show_board(None)
        self.console.print(scores_table(self.table.game, state))
        if self.save_to:
            self.write(self.save_to)


def scores_table(game: Game, state: State) -> Grid:
    over = state.is_terminal()
    t = Grid(title="Final scores" if over else "Scores so far", title_justify="left")
    t.add_column("seat")
    t.add_column("score", justify="right")
    if over:
        t.add_column("result", justify="right")
    scores = state.scores()
    returns = state.returns() if over else []
    for i in range(game.players):
        row: list[Any] = [seat_name(i), f"{scores[i]:g}"]
        if over:
            row.append(f"{returns[i]:+.2f}")
        t.add_row(*row)
    return t


@app.command()
def play(
    game_name: str = typer.Argument("", metavar="GAME", help="a game from `tianxia games`"),
    players: int = typer.Option(0, "--players", "-p", help="player count (default: smallest)"),
    option: list[str] = typer.Option([], "--option", "-o", help="name=value, repeatable"),
    seats: str = typer.Option(
        "",
        "--seats",
        help="comma list per seat: human, a strength (random, easy, medium, hard) or a bot "
        "name (greedy, ismcts, pimc); default P1 human, the others random",
    ),
    seed: int = typer.Option(0, "--seed", help="seeds chance and the bots"),
    save: str = typer.Option("", "--save", help="write the match here when the game stops"),
    as_json: bool = typer.Option(False, "--json", help="print observations as JSON, not boards"),
) -> None:
    """Play a game in the terminal against bots, or hotseat."""
    console = Console()
    name = game_name or _default_game()
    game = load(name, players or None, option)
    plans, named = seat_plans(game, seats)
    made = {
        seat: bot_policy(kind, game, seat, seed + 1000 * (seat + 1))[1]
        for seat, kind in named.items()
    }
    try:
        table = Table(Match(game, seed=seed), plans, bot_seed=seed + 1000, bots=made)
    except ValueError as e:  # a strength this variant has no bot for (`learned`)
        raise typer.BadParameter(str(e)) from e
    labels = [named.get(i, p.label()) for i, p in enumerate(plans)]
    console.print(
        f"[bold]{game.info.title}[/bold], {game.players} players: "
        + ", ".join(f"{seat_name(i)} {label}" for i, label in enumerate(labels)),
        highlight=False,
    )
    loop = TextTable(table, console, as_json, save)
    try:
        loop.run()
    except KeyboardInterrupt:
        console.print("\ninterrupted; the game stops here")
    loop.finish()
