"""Tournaments: many seeded games between entrants, seats rotated, played over processes.

A tournament is fully determined by its game variant, its entrants, the number of games
and its seed: game `i` has its own seed, its own seating and its own bot seeds, so the
results do not depend on how many processes played it (for bots limited by simulations;
a bot limited by time decides by the clock, which no seed can fix).

Seating: with as many entrants as seats, game `i` rotates them by `i` seats. With fewer,
the last entrant fills the empty seats (`greedy,random` at four seats is one greedy bot
against three random ones) and the line-up is rotated the same way. With more, game `i`
seats a rotating window of them.

Games run in this process, over a process pool, or as Ray tasks (`tianxia.play.cluster`).
With a journal, each finished game is appended to it at once, and a run given the journal
of an interrupted one plays only the games it lacks.
"""

from __future__ import annotations

import json
import os
import time
from collections.abc import Callable, Sequence
from concurrent.futures import ProcessPoolExecutor, as_completed
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from tianxia.core import Action, Game, Match, State, load_game
from tianxia.play.runner import BotSpec, play_match, shares_of_win

if TYPE_CHECKING:
    from tianxia.play.cluster import RayPool

_GAME_SEED_STRIDE = 100_003
_BOT_SEED_STRIDE = 7_919


@dataclass(frozen=True)
class Seating:
    """Game `index` of a tournament: its chance seed and the entrant at each seat."""

    index: int
    seed: int
    seats: tuple[int, ...]


@dataclass
class SeatStats:
    """How one seat's bot spent its thinking in one game."""

    decisions: int = 0
    seconds: float = 0.0
    simulations: int = 0
    search_seconds: float = 0.0


@dataclass
class GameRecord:
    """The outcome of one tournament game, and its log for replay."""

    index: int
    seed: int
    seats: tuple[int, ...]
    returns: list[float]
    scores: list[float]
    shares: list[float]
    length: int
    stats: list[SeatStats]
    log: dict[str, Any] = field(repr=False)
    seconds: float = 0.0

    def to_json(self) -> dict[str, Any]:
        return asdict(self)

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> GameRecord:
        return cls(
            **{
                **data,
                "seats": tuple(data["seats"]),
                "stats": [SeatStats(**st) for st in data["stats"]],
            }
        )


@dataclass
class Standing:
    """One entrant's totals over the tournament."""

    label: str
    games: int = 0
    seat_games: int = 0
    wins: float = 0.0
    fair_share: float = 0.0
    total_return: float = 0.0
    total_score: float = 0.0
    mu: float = 0.0
    sigma: float = 0.0
    ordinal: float = 0.0
    decisions: int = 0
    seconds: float = 0.0
    simulations: int = 0
    search_seconds: float = 0.0

    @property
    def win_rate(self) -> float:
        """Wins per seat played (ties split)."""
        return self.wins / self.seat_games if self.seat_games else 0.0

    @property
    def share_ratio(self) -> float:
        """Wins over the fair share (1/players per seat): 1.0 is what chance alone gives."""
        return self.wins / self.fair_share if self.fair_share else 0.0

    @property
    def mean_return(self) -> float:
        return self.total_return / self.seat_games if self.seat_games else 0.0

    @property
    def mean_score(self) -> float:
        return self.total_score / self.seat_games if self.seat_games else 0.0

    @property
    def seconds_per_decision(self) -> float:
        return self.seconds / self.decisions if self.decisions else 0.0

    @property
    def simulations_per_second(self) -> float:
        return self.simulations / self.search_seconds if self.search_seconds else 0.0

    def to_json(self) -> dict[str, Any]:
        out = asdict(self)
        for name in (
            "win_rate",
            "share_ratio",
            "mean_return",
            "mean_score",
            "seconds_per_decision",
            "simulations_per_second",
        ):
            out[name] = getattr(self, name)
        return out


class Tournament:
    """Seeded games between `entrants` on `game`.

    Args:
        game: the variant (its player count fixes the seats per game).
        entrants: bot specs, `name` or `name:key=value:...` (see `BotSpec`).
        games: how many games.
        seed: the tournament seed; game `i` uses a seed derived from it.

    Raises:
        ValueError: no entrants, fewer than one game, or a bot or option that does not exist.
    """

    def __init__(
        self, game: Game, entrants: Sequence[str | BotSpec], games: int, seed: int = 0
    ) -> None:
        if isinstance(games, bool) or not isinstance(games, int) or games < 1:
            raise ValueError(f"a tournament needs at least one game, not {games!r}")
        if isinstance(seed, bool) or not isinstance(seed, int):
            raise ValueError(f"the tournament seed must be a whole number, not {seed!r}")
        if not entrants:
            raise ValueError("a tournament needs at least one entrant")
        specs = [e if isinstance(e, BotSpec) else BotSpec.parse(e) for e in entrants]
        for spec in specs:
            spec.make(game, 0, 0)  # refuse unknown bots and options before any game starts
        self.game = game
        self.entrants = specs
        self.labels = _unique_labels([str(s) for s in specs])
        self.games = games
        self.seed = seed

    def seatings(self) -> list[Seating]:
        """Every game's seed and seating, in order."""
        n, e = self.game.players, len(self.entrants)
        lineup = list(range(e)) + [e - 1] * max(0, n - e)
        out = []
        for i in range(self.games):
            if e > n:
                seats = tuple((i + s) % e for s in range(n))
            else:
                seats = tuple(lineup[(s - i) % n] for s in range(n))
            out.append(Seating(i, self.seed * _GAME_SEED_STRIDE + i, seats))
        return out

    def run(
        self,
        workers: int = 1,
        on_game: Callable[[GameRecord], None] | None = None,
        journal: str | Path | None = None,
        pool: RayPool | None = None,
    ) -> TournamentResult:
        """Play every game, over `workers` processes (1: in this process) or Ray's `pool`.

        `on_game` is called in this process as each game finishes (for a progress bar),
        first for each game the journal already holds. With `journal`, a JSON-lines file,
        every finished game is appended to it at once; games it holds are not played
        again, so an interrupted tournament resumes where it stopped.

        Raises:
            ValueError: bad `workers`, or a journal written by another tournament.
        """
        if isinstance(workers, bool) or not isinstance(workers, int) or workers < 1:
            raise ValueError(f"workers must be a whole number >= 1, not {workers!r}")
        spec = self.game.spec()
        entrants = [str(s) for s in self.entrants]
        book = Journal(journal, self) if journal is not None else None
        records = book.load() if book is not None else []
        have = {r.index for r in records}
        plans = [p for p in self.seatings() if p.index not in have]
        if on_game is not None:
            for r in records:
                on_game(r)

        def finished(record: GameRecord) -> None:
            records.append(record)
            if book is not None:
                book.append(record)
            if on_game is not None:
                on_game(record)

        if not plans:
            pass
        elif pool is not None:
            for record in pool.play(spec, entrants, plans):
                finished(record)
        elif workers == 1 or len(plans) == 1:
            for plan in plans:
                finished(play_seating(spec, entrants, plan, self.game))
        else:
            with ProcessPoolExecutor(max_workers=min(workers, len(plans))) as processes:
                futures = [processes.submit(play_seating, spec, entrants, p) for p in plans]
                for done in as_completed(futures):
                    finished(done.result())
        records.sort(key=lambda r: r.index)
        return TournamentResult(self.game, self.labels, records, self.seed)

    def identity(self) -> dict[str, Any]:
        """What fixes every game's plan: the variant, the entrants and the seed.

        The number of games does not: game `i` is the same in a tournament of any length.
        """
        return {**self.game.spec(), "entrants": [str(s) for s in self.entrants], "seed": self.seed}


class Journal:
    """Finished games of one tournament, a JSON line each, written as they finish.

    The first line names the tournament (`Tournament.identity`); a journal of another
    tournament is refused rather than mixed in. A last line cut short by an interruption
    is dropped (that game is played again).
    """

    def __init__(self, path: str | Path, tournament: Tournament) -> None:
        self.path = Path(path)
        self.tournament = tournament
        self.identity = json.loads(json.dumps(tournament.identity()))

    def load(self) -> list[GameRecord]:
        """The games already played (of this tournament's length), starting the file if new.

        Raises:
            ValueError: the journal belongs to another tournament.
        """
        if not self.path.exists() or not self.path.read_bytes().strip():
            self.path.parent.mkdir(parents=True, exist_ok=True)
            self.path.write_text(json.dumps({"tournament": self.identity}) + "\n", "utf-8")
            return []
        lines = self.path.read_text(encoding="utf-8").splitlines()
        head = json.loads(lines[0]).get("tournament")
        if head != self.identity:
            raise ValueError(
                f"{self.path} holds the games of another tournament ({head}); "
                "choose another output folder or remove it"
            )
        found: dict[int, GameRecord] = {}
        kept = [lines[0]]
        for line in lines[1:]:
            try:
                record = GameRecord.from_json(json.loads(line))
            except (ValueError, TypeError, KeyError):
                continue  # cut short when the run was stopped: that game is played again
            kept.append(line)
            if record.index < self.tournament.games:
                found[record.index] = record
        if len(kept) != len(lines):
            self.path.write_text("\n".join(kept) + "\n", encoding="utf-8")
        return [found[i] for i in sorted(found)]

    def append(self, record: GameRecord) -> None:
        with self.path.open("a", encoding="utf-8") as f:
            f.write(json.dumps(record.to_json(), separators=(",", ":")) + "\n")
            f.flush()
            os.fsync(f.fileno())


def _unique_labels(labels: list[str]) -> list[str]:
    """Entrant names, numbered where the same bot is entered twice (`greedy`, `greedy#2`)."""
    out: list[str] = []
    for label in labels:
        name, k = label, 1
        while name in out:
            k += 1
            name = f"{label}#{k}"
        out.append(name)
    return out


def play_seating(
    spec: dict[str, Any], entrants: list[str], plan: Seating, game: Game | None = None
) -> GameRecord:
    """Play one planned game (run in a worker process: everything here is picklable)."""
    start = time.perf_counter()
    if game is None:
        game = load_game(spec["game"], players=spec["players"], **spec["options"])
    stats = [SeatStats() for _ in range(game.players)]
    players: list[Callable[[State], Action]] = []
    for seat, entrant in enumerate(plan.seats):
        bot = BotSpec.parse(entrants[entrant]).make(game, seat, plan.seed * _BOT_SEED_STRIDE + seat)
        players.append(_timed(bot, stats[seat]))
    match = play_match(game, players, seed=plan.seed)
    final = match.state
    returns = [float(r) for r in final.returns()]
    log = match.to_json()
    log["bots"] = [entrants[e] for e in plan.seats]
    log["tournament_game"] = plan.index
    return GameRecord(
        index=plan.index,
        seed=plan.seed,
        seats=plan.seats,
        returns=returns,
        scores=[float(s) for s in final.scores()],
        shares=shares_of_win(returns),
        length=len(match.log),
        stats=stats,
        log=log,
        seconds=time.perf_counter() - start,
    )


class Forecast:
    """How long the rest of a tournament will take, from the games finished so far.

    Seats rotate, so games differ in cost: a game with a searching bot in two seats takes
    longer than one with it in none. Each finished game teaches the seconds per move of
    every entrant in it, the moves per seat, and the time spent outside the bots; every
    game still to play is then priced by who sits where, and the total is shared over
    the processes. An entrant not seen yet is priced at the mean of those seen.

    Args:
        tournament: the plan.
        workers: processes playing it.
    """

    def __init__(self, tournament: Tournament, workers: int = 1) -> None:
        self.tournament = tournament
        self.seatings = tournament.seatings()
        self.labels = tournament.labels
        self.probed: list[float | None] = [None] * len(self.labels)
        self.workers = max(1, workers)
        self.done: set[int] = set()
        self._seconds = [0.0] * len(self.labels)
        self._moves = [0] * len(self.labels)
        self._seat_moves = [0] * tournament.game.players
        self._overhead = 0.0

    def probe(self) -> None:
        """Time one move of every entrant at the first decision of game 0.

        It costs one move per entrant, and prices entrants that the first games to finish
        did not seat (with more entrants than seats, game 0 seats only some).
        """
        game = self.tournament.game
        plan = self.seatings[0]
        match = Match(game, seed=plan.seed)
        match.resolve_chance()
        state = match.state
        if state.is_terminal():
            return
        seat = state.current_player()
        for entrant, spec in enumerate(self.tournament.entrants):
            bot = spec.make(game, seat, plan.seed * _BOT_SEED_STRIDE + seat)
            start = time.perf_counter()
            bot.act(state)
            self.probed[entrant] = time.perf_counter() - start

    def add(self, record: GameRecord) -> None:
        """Learn from one finished game."""
        self.done.add(record.index)
        for seat, (entrant, st) in enumerate(zip(record.seats, record.stats, strict=True)):
            self._seconds[entrant] += st.seconds
            self._moves[entrant] += st.decisions
            self._seat_moves[seat] += st.decisions
        self._overhead += max(0.0, record.seconds - sum(st.seconds for st in record.stats))

    def seconds_per_move(self, entrant: int) -> float | None:
        """Entrant `entrant`'s mean thinking time per move: over its finished games, else
        its probe (None: neither)."""
        if not self._moves[entrant]:
            return self.probed[entrant]
        return self._seconds[entrant] / self._moves[entrant]

    def game_seconds(self, seating: Seating) -> float:
        """The predicted time of one game (0 before any game has finished)."""
        if not self.done:
            return 0.0
        seen = [p for e in range(len(self.labels)) if (p := self.seconds_per_move(e)) is not None]
        unseen = sum(seen) / len(seen) if seen else 0.0
        n = len(self.done)
        total = self._overhead / n
        for seat, entrant in enumerate(seating.seats):
            per_move = self.seconds_per_move(entrant)
            total += self._seat_moves[seat] / n * (unseen if per_move is None else per_move)
        return total

    def remaining(self) -> float | None:
        """Seconds until the last game ends (None until a game has finished)."""
        if not self.done:
            return None
        left = [self.game_seconds(s) for s in self.seatings if s.index not in self.done]
        if not left:
            return 0.0
        # No faster than the longest single game, however many processes share the rest.
        return max(sum(left) / min(self.workers, len(left)), max(left))

    def summary(self) -> str:
        """One line: the time left and what it rests on."""
        left = self.remaining()
        if left is None:
            return "no game has finished yet"
        moves = []
        for entrant, label in enumerate(self.labels):
            per_move = self.seconds_per_move(entrant)
            if per_move is not None:
                moves.append(f"{label} {format_seconds(per_move)}")
        games = len(self.seatings) - len(self.done)
        processes = min(self.workers, games) if games else self.workers
        return (
            f"about {format_seconds(left)} left for {games} more games on {processes} "
            f"process{'es' if processes != 1 else ''}; per move: {', '.join(moves)}"
        )


def format_seconds(seconds: float) -> str:
    """`0.27 s`, `3 ms`, `41 s`, `19 min`, `2 h 05 min`: as precise as a forecast deserves."""
    if seconds < 0.01:
        return f"{1000 * seconds:.0f} ms"
    if seconds < 10:
        return f"{seconds:.2g} s"
    if seconds < 90:
        return f"{seconds:.0f} s"
    if seconds < 90 * 60:
        return f"{seconds / 60:.0f} min"
    hours, minutes = divmod(round(seconds / 60), 60)
    return f"{hours} h {minutes:02d} min"


def _timed(bot: Any, stats: SeatStats) -> Callable[[State], Action]:
    def act(state: State) -> Action:
        start = time.perf_counter()
        action: Action = bot.act(state)
        stats.seconds += time.perf_counter() - start
        stats.decisions += 1
        sims = getattr(bot, "last_simulations", 0)
        if sims:
            stats.simulations += sims
            stats.search_seconds += bot.last_seconds
            bot.last_simulations = 0
        return action

    return act


class TournamentResult:
    """Standings, ratings and the per-game records of a finished tournament."""

    def __init__(self, game: Game, labels: list[str], records: list[GameRecord], seed: int) -> None:
        self.game = game
        self.labels = labels
        self.records = records
        self.seed = seed
        self.standings = self._standings()

    def _standings(self) -> list[Standing]:
        from tianxia.play.ratings import rate_games

        table = [Standing(label) for label in self.labels]
        n = self.game.players
        for r in self.records:
            for e in set(r.seats):
                table[e].games += 1
            for seat, e in enumerate(r.seats):
                st, ss = table[e], r.stats[seat]
                st.seat_games += 1
                st.wins += r.shares[seat]
                st.fair_share += 1.0 / n
                st.total_return += r.returns[seat]
                st.total_score += r.scores[seat]
                st.decisions += ss.decisions
                st.seconds += ss.seconds
                st.simulations += ss.simulations
                st.search_seconds += ss.search_seconds
        ratings = rate_games(len(self.labels), [(r.seats, r.returns) for r in self.records])
        for st, (mu, sigma) in zip(table, ratings, strict=True):
            st.mu, st.sigma, st.ordinal = mu, sigma, mu - 3 * sigma
        return table

    def to_json(self) -> dict[str, Any]:
        return {
            **self.game.spec(),
            "seed": self.seed,
            "games": len(self.records),
            "entrants": self.labels,
            "standings": [s.to_json() for s in self.standings],
            "results": [
                {
                    "index": r.index,
                    "seed": r.seed,
                    "bots": [self.labels[e] for e in r.seats],
                    "returns": r.returns,
                    "scores": r.scores,
                    "length": r.length,
                }
                for r in self.records
            ],
        }

    def table_rows(self) -> list[list[str]]:
        """The standings as text cells, best rating first."""
        rows = []
        for s in sorted(self.standings, key=lambda s: -s.ordinal):
            sims = f"{s.simulations_per_second:.0f}" if s.simulations else "-"
            rows.append(
                [
                    s.label,
                    str(s.seat_games),
                    f"{s.wins:g}",
                    f"{100 * s.win_rate:.1f}",
                    f"{s.share_ratio:.2f}",
                    f"{s.mean_return:+.3f}",
                    f"{s.mu:.1f} ± {s.sigma:.1f}",
                    f"{1000 * s.seconds_per_decision:.1f}",
                    sims,
                ]
            )
        return rows

    COLUMNS = (
        "bot",
        "seats",
        "wins",
        "win %",
        "× fair",
        "mean return",
        "rating",
        "ms/move",
        "sims/s",
    )

    def markdown(self) -> str:
        """The standings as a Markdown table."""
        head = f"| {' | '.join(self.COLUMNS)} |"
        rule = "|" + "|".join("---" for _ in self.COLUMNS) + "|"
        body = [f"| {' | '.join(row)} |" for row in self.table_rows()]
        return "\n".join([head, rule, *body])

    def save(self, folder: str | Path) -> list[Path]:
        """Write the logs (one replayable match per game), results, table and charts."""
        from tianxia.play.report import save_chart

        out = Path(folder)
        logs = out / "logs"
        logs.mkdir(parents=True, exist_ok=True)
        written = []
        for r in self.records:
            path = logs / f"game-{r.index:05d}.json"
            path.write_text(json.dumps(r.log, indent=1) + "\n", encoding="utf-8")
        written.append(logs)
        results = out / "results.json"
        results.write_text(json.dumps(self.to_json(), indent=1) + "\n", encoding="utf-8")
        table = out / "results.md"
        title = f"{self.game.info.title}, {self.game.players} players, seed {self.seed}"
        table.write_text(
            f"# {title}: {len(self.records)} games\n\n{self.markdown()}\n", encoding="utf-8"
        )
        written += [results, table]
        written += save_chart(self, out / "chart")
        return written


def default_workers() -> int:
    """One process per core."""
    return os.cpu_count() or 1
