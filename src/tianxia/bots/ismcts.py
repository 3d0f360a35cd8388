"""Information-set Monte Carlo tree search (single observer, UCT with availability counts).

Every simulation draws a fresh determinisation of the bot's information state with
`resample_from_infostate`, walks the one shared tree with UCT restricted to the actions
legal in that determinisation (Cowling, Powley and Whitehouse 2012), adds one node, plays
random moves for at most `rollout_depth` decisions and then scores the position with the
game's evaluation hook. Chance outcomes are drawn from the bot's own stream; by default
each outcome has its own subtree (`chance="closed"`), so the actions after a roll of six
are not judged with those after a one.

`pimc` shares the machinery but searches a few determinisations fixed for the whole
decision, one tree each, and sums their root statistics.
"""

from __future__ import annotations

import math
import time
from collections.abc import Mapping
from typing import Any, ClassVar

from tianxia.bots.base import Bot, _check_number, in_words, move_in_words, terms_text
from tianxia.bots.evaluation import mean_terms, settle, value_for, values
from tianxia.core import CHANCE, TERMINAL, Action, Game, State, sample_chance

_TOP = 5
_TERM_SAMPLES = 8
_DEFAULT_SIMULATIONS = 1000
_TO_THE_END = "end"
_OPEN, _SEEN, _CLOSED = "open", "seen", "closed"
_CHANCE_MODES = (_OPEN, _SEEN, _CLOSED)


class _Node:
    """Statistics of one action taken at an information set, for the seat that took it."""

    __slots__ = ("avail", "children", "infos", "player", "rank", "total", "visits")

    def __init__(self, player: int) -> None:
        self.children: dict[Action, _Node] = {}
        # With `opponents="informed"`: at another seat's decision, the node under which
        # that seat decides, one per private information it holds there.
        self.infos: dict[Any, _Node] | None = None
        # With `expand="greedy"`: the mover's one-ply value of each action seen here.
        self.rank: dict[Action, float] | None = None
        self.visits = 0
        self.total = 0.0
        self.avail = 1
        self.player = player


class ISMCTSBot(Bot):
    """ISMCTS over `resample_from_infostate`.

    Options:
        simulations: simulations per decision (default 1000 when no time limit is set).
        time_limit: seconds per decision; with both set, whichever ends first.
        exploration: the UCT constant, for values on [-1, 1].
        rollout_depth: random decisions after the new node before the evaluation hook
            scores the position (0: score it at once; `end`: play to the end of the game).
        prior_visits: each root action starts with this many virtual visits at the value
            the evaluation hook gives it one ply on (as `greedy` judges it), so a small
            budget spread over many actions never plays worse than one ply of look-ahead
            (0: no prior).
        prior_worlds: determinisations that one-ply value is averaged over.
        chance: `closed` (each outcome drawn in the tree gets its own subtree), `open`
            (outcomes do not branch the tree; decisions after a die share statistics,
            which measured weaker on China and Mandarin) or `seen` (an outcome branches
            the tree when the searching seat sees it, as `State.event` tells: a die or a
            card turned face up does, another seat's draw does not, so the tree's nodes
            are the seat's own information sets).
        widen_above: progressive widening at decisions with more legal actions than this
            (0: never). Such a decision visited n times considers only
            ceil(widen_k * n ** widen_power) of its actions: at the root the best by their
            one-ply value, below it those tried first (drawn at random), so a search over
            an auction's hundreds of bids grows deep instead of only wide.
        widen_k, widen_power: the widening schedule.
        centre: subtract the seats' mean from the hook's values in a zero-sum game (1)
            or not (0).
        expand: which untried action a visit adds to the tree: `random`, or `greedy` (the
            one the mover likes best one ply on, as `greedy` judges it), so that the
            replies of the other seats the tree has weighed least are not random ones.
        opponents: `fused` (another seat's decisions share statistics over every hand the
            searching seat cannot tell apart), `informed` (they sit under a node per
            private information that seat holds in the world simulated, as the game's
            search room names it with `private(state, seat)`; without it, `fused`) or
            `policy` (they are not searched: each plays as in a rollout, and the tree
            holds only the searching seat's decisions and the chance between them).
        final: the move played: the root action with the most `visits` (ties: the better
            mean), or the best `mean` value (ties: more visits).
        rollout_greedy: the chance that a rollout decision takes the action the mover's
            hook likes best one ply on instead of a random one (0: random rollouts).
        abstract: where the game's search room offers `search_actions(state, legal)`,
            weigh only the actions it keeps, in the tree and in rollouts (1), or every
            legal action (0). Mandarin keeps a few bid levels of an auction's hundreds.

    A game's search room may declare `SEARCH_DEFAULTS`, a dict of these options with the
    values measured best on that game, and `SEARCH_DEFAULTS_BY_PLAYERS`, such dicts keyed
    by the number of players, for what was measured best at one table size; options
    given to the bot override both.
    """

    NAME = "ismcts"
    OPTIONS: ClassVar[Mapping[str, Any]] = {
        "simulations": None,
        "time_limit": None,
        "exploration": 0.7,
        "rollout_depth": 4,
        "prior_visits": 4,
        "prior_worlds": 4,
        "chance": "closed",
        "widen_above": 0,
        "widen_k": 2.0,
        "widen_power": 0.5,
        "centre": 1,
        "abstract": 1,
        "rollout_greedy": 0.0,
        "final": "visits",
        "expand": "random",
        "opponents": "fused",
    }

    def __init__(self, game: Game, seat: int, seed: int = 0, **options: Any) -> None:
        # A game's search room may set other defaults, chosen by measuring that game.
        declared = {
            **getattr(game.search, "SEARCH_DEFAULTS", {}),
            **getattr(game.search, "SEARCH_DEFAULTS_BY_PLAYERS", {}).get(game.players, {}),
        }
        tuned = {k: v for k, v in declared.items() if k in self.OPTIONS}
        super().__init__(game, seat, seed, **{**tuned, **options})
        o = self.options
        sims, limit = o["simulations"], o["time_limit"]
        if sims is not None:
            sims = _check_number(self.NAME, "simulations", sims, kind=int, low=1)
        if limit is not None:
            limit = _check_number(self.NAME, "time_limit", limit, kind=float, low=0.001)
        if sims is None and limit is None:
            sims = _DEFAULT_SIMULATIONS
        self.simulations: int | None = sims
        self.time_limit: float | None = limit
        self.exploration: float = _check_number(
            self.NAME, "exploration", o["exploration"], kind=float, low=0.0
        )
        depth = o["rollout_depth"]
        if depth == _TO_THE_END:
            # A game's rules end every game (max_game_length), so "to the end" is bounded.
            self.rollout_depth: int = game.info.max_game_length
        else:
            self.rollout_depth = _check_number(self.NAME, "rollout_depth", depth, kind=int, low=0)
        self.prior_visits: int = _check_number(
            self.NAME, "prior_visits", o["prior_visits"], kind=int, low=0
        )
        self.prior_worlds: int = _check_number(
            self.NAME, "prior_worlds", o["prior_worlds"], kind=int, low=1
        )
        if o["chance"] not in _CHANCE_MODES:
            raise ValueError(
                f"{self.NAME}: option chance must be open, seen or closed, not {o['chance']!r}"
            )
        self.chance: str = o["chance"]
        self.widen_above: int = _check_number(
            self.NAME, "widen_above", o["widen_above"], kind=int, low=0
        )
        self.widen_k: float = _check_number(self.NAME, "widen_k", o["widen_k"], kind=float, low=1.0)
        self.widen_power: float = _check_number(
            self.NAME, "widen_power", o["widen_power"], kind=float, low=0.0, high=1.0
        )
        centre = o["centre"]
        if centre not in (0, 1):  # True and False included
            raise ValueError(f"{self.NAME}: option centre must be 0 or 1, not {centre!r}")
        self.centre: bool = bool(centre)
        self.rollout_greedy: float = _check_number(
            self.NAME, "rollout_greedy", o["rollout_greedy"], kind=float, low=0.0, high=1.0
        )
        if o["final"] not in ("visits", "mean"):
            raise ValueError(
                f"{self.NAME}: option final must be visits or mean, not {o['final']!r}"
            )
        self.by_mean: bool = o["final"] == "mean"
        if o["expand"] not in ("random", "greedy"):
            raise ValueError(
                f"{self.NAME}: option expand must be random or greedy, not {o['expand']!r}"
            )
        self.expand_greedy: bool = o["expand"] == "greedy"
        if o["opponents"] not in ("fused", "informed", "policy"):
            raise ValueError(
                f"{self.NAME}: option opponents must be fused, informed or policy, "
                f"not {o['opponents']!r}"
            )
        self.opponents_play: bool = o["opponents"] == "policy"
        private = getattr(game.search, "private", None)
        self._private: Any = private if o["opponents"] == "informed" else None
        abstract = o["abstract"]
        if abstract not in (0, 1):
            raise ValueError(f"{self.NAME}: option abstract must be 0 or 1, not {abstract!r}")
        self._abstract: Any = getattr(game.search, "search_actions", None) if abstract else None
        # The root's actions best first by their one-ply value, for widening there.
        self._root_rank: dict[Action, int] = {}
        self.last_simulations = 0
        self.last_seconds = 0.0

    @property
    def simulations_per_second(self) -> float:
        """Speed of the last search."""
        return self.last_simulations / self.last_seconds if self.last_seconds > 0 else 0.0

    def _choose(self, state: State, legal: tuple[Action, ...]) -> Action:
        if self._abstract is not None:
            legal = self._abstract(state, legal)
            if len(legal) == 1:
                self._explanation = f"{self.NAME}: {legal[0]} is the only action weighed"
                only = legal[0]
                self._reason = lambda: in_words("only", move_in_words(state, only))
                return legal[0]
        budget = self.simulations if self.simulations is not None else math.inf
        start = time.perf_counter()
        deadline = start + self.time_limit if self.time_limit is not None else math.inf
        roots = self._roots(state)
        self._root_rank = {}
        if self.prior_visits:
            self._seed_root(roots[0][0], state, legal)
            if self.widen_above and len(legal) > self.widen_above:
                children = roots[0][0].children
                order = sorted(legal, key=lambda a: -children[a].total / children[a].visits)
                self._root_rank = {a: i for i, a in enumerate(order)}
        samples: list[State] = []
        done = 0
        while done < budget:
            root, world = self._world(state, roots, done)
            if len(samples) < _TERM_SAMPLES:
                samples.append(world)
            self._simulate(root, world)
            done += 1
            if deadline != math.inf and time.perf_counter() >= deadline:
                break
        self.last_simulations = done
        self.last_seconds = time.perf_counter() - start
        merged = _merge(roots, legal)

        def rank(ac: tuple[Action, _Node]) -> tuple[float, float]:
            visits, mean = ac[1].visits, ac[1].total / max(1, ac[1].visits)
            return (-mean, -visits) if self.by_mean else (-visits, -mean)

        ranked = sorted(merged.items(), key=rank)
        choice = ranked[0][0]
        self._explanation = self._describe_search(choice, ranked, samples)
        chosen = ranked[0][1].visits
        second = ranked[1][0] if len(ranked) > 1 else None
        twice = ranked[1][1].visits if len(ranked) > 1 else 0
        kind = "best_mean" if self.by_mean else "search"
        self._reason = lambda: in_words(
            kind,
            move_in_words(state, choice),
            twice,
            move_in_words(state, second) if second is not None else "",
            chosen,
            done,
        )
        return choice

    def _seed_root(self, root: _Node, state: State, legal: tuple[Action, ...]) -> None:
        """Give each root action `prior_visits` virtual visits at its one-ply value."""
        seat, rng, n0, centre = self.seat, self.rng, self.prior_visits, self.centre
        worlds = [state.resample_from_infostate(seat, rng) for _ in range(self.prior_worlds)]
        for a in legal:
            v = sum(values(settle(w.apply_unchecked(a), rng), centre)[seat] for w in worlds)
            child = root.children[a] = _Node(seat)
            child.visits = child.avail = n0
            child.total = n0 * v / len(worlds)

    def _roots(self, state: State) -> list[tuple[_Node, State | None]]:
        """The trees searched: one, over a fresh determinisation per simulation."""
        return [(_Node(self.seat), None)]

    def _world(
        self, state: State, roots: list[tuple[_Node, State | None]], done: int
    ) -> tuple[_Node, State]:
        """The tree and the determinisation for simulation number `done`."""
        return roots[0][0], state.resample_from_infostate(self.seat, self.rng)

    def _simulate(self, root: _Node, state: State) -> None:
        rng = self.rng
        c = self.exploration
        chance = self.chance
        seat = self.seat
        private = self._private
        log = math.log
        sqrt = math.sqrt
        node = root
        path: list[_Node] = []
        while True:
            p = state.current_player()
            if p == TERMINAL:
                result = values(state, self.centre)
                break
            if p == CHANCE:
                outcome = sample_chance(state, rng)
                after = state.apply_unchecked(outcome)
                if chance == _CLOSED or (
                    chance == _SEEN and state.event(outcome, after).visible_to(seat)
                ):
                    below = node.children.get(outcome)
                    if below is None:
                        below = node.children[outcome] = _Node(CHANCE)
                    node = below
                state = after
                continue
            legal = state.legal_actions()
            if self._abstract is not None:
                legal = self._abstract(state, legal)
            if self.opponents_play and p != seat:
                # Not searched: the seat plays as in a rollout, and the walk goes on from
                # the same node to the searching seat's next decision.
                state = self._policy_step(state, p, legal)
                continue
            if private is not None and p != seat:
                # Another seat decides on what it holds in this world, not on statistics
                # fused over every hand the searching seat cannot tell apart.
                infos = node.infos
                if infos is None:
                    infos = node.infos = {}
                key = private(state, p)
                below = infos.get(key)
                if below is None:
                    below = infos[key] = _Node(p)
                node = below
            children = node.children
            if self.widen_above and len(legal) > self.widen_above:
                legal = self._widened(node, root, legal)
            untried = [a for a in legal if a not in children]
            if untried:
                for a in legal:
                    known = children.get(a)
                    if known is not None:
                        known.avail += 1
                if len(untried) == 1:
                    a = untried[0]
                elif self.expand_greedy:
                    a = self._best_untried(node, state, p, untried)
                else:
                    a = rng.choice(untried)
                node = children[a] = _Node(p)
                path.append(node)
                result = self._rollout(state.apply_unchecked(a))
                break
            best_score = -math.inf
            best_action = legal[0]
            best_child = None
            for a in legal:
                child = children[a]
                child.avail += 1
                score = child.total / child.visits + c * sqrt(log(child.avail) / child.visits)
                if score > best_score:
                    best_score, best_action, best_child = score, a, child
            assert best_child is not None
            node = best_child
            path.append(node)
            state = state.apply_unchecked(best_action)
        for n in path:
            n.visits += 1
            n.total += result[n.player]
        root.visits += 1

    def _widened(self, node: _Node, root: _Node, legal: tuple[Action, ...]) -> tuple[Action, ...]:
        """The actions a widened decision considers after `node.visits` visits."""
        width = max(1, math.ceil(self.widen_k * (node.visits + 1) ** self.widen_power))
        if width >= len(legal):
            return legal
        if node is root and self._root_rank:
            rank = self._root_rank
            last = len(rank)
            return tuple(a for a in legal if rank.get(a, last) < width) or legal[:width]
        children = node.children
        tried = tuple(a for a in legal if a in children)
        if len(tried) >= width:
            return tried
        # Room for one more: the walk below expands one untried action, drawn at random.
        return legal

    def _best_untried(self, node: _Node, state: State, seat: int, untried: list[Action]) -> Action:
        """The untried action `seat` likes best one ply on (each valued once, in the first
        world it was legal in), so that a reply the tree has not weighed yet is at least
        the one greedy would play."""
        rank = node.rank
        if rank is None:
            rank = node.rank = {}
        rng = self.rng
        best, best_value = untried[0], -math.inf
        for a in untried:
            v = rank.get(a)
            if v is None:
                v = rank[a] = value_for(settle(state.apply_unchecked(a), rng), seat)
            if v > best_value:
                best, best_value = a, v
        return best

    def _rollout(self, state: State) -> list[float]:
        rng = self.rng
        decisions = 0
        while True:
            p = state.current_player()
            if p == TERMINAL:
                return values(state, self.centre)
            if p == CHANCE:
                state = state.apply_unchecked(sample_chance(state, rng))
                continue
            if decisions >= self.rollout_depth:
                return values(state, self.centre)
            legal = state.legal_actions()
            if self._abstract is not None:
                legal = self._abstract(state, legal)
            state = self._policy_step(state, p, legal)
            decisions += 1

    def _policy_step(self, state: State, seat: int, legal: tuple[Action, ...]) -> State:
        """The rollout policy's move: greedy with chance `rollout_greedy`, else random."""
        rng = self.rng
        if self.rollout_greedy and len(legal) > 1 and rng.random() < self.rollout_greedy:
            return self._greedy_step(state, seat, legal)
        return state.apply_unchecked(rng.choice(legal))

    def _greedy_step(self, state: State, seat: int, legal: tuple[Action, ...]) -> State:
        """The successor `seat` likes best one ply on, chance drawn; ties to the first."""
        rng = self.rng
        best, best_value = state, -math.inf
        for a in legal:
            after = settle(state.apply_unchecked(a), rng)
            v = value_for(after, seat)
            if v > best_value:
                best, best_value = after, v
        return best

    def _describe_search(
        self, choice: Action, ranked: list[tuple[Action, _Node]], samples: list[State]
    ) -> str:
        speed = self.simulations_per_second
        lines = [
            f"{self.NAME}: {choice} after {self.last_simulations} simulations "
            f"in {self.last_seconds:.2f}s ({speed:.0f}/s), {len(ranked)} actions tried"
        ]
        if self.prior_visits:
            lines[0] += f"; visits include {self.prior_visits} from the one-ply prior"
        for a, n in ranked[:_TOP]:
            lines.append(f"  {a}: {n.visits} visits, value {n.total / max(1, n.visits):+.3f}")
        lines.append(f"  terms now: {terms_text(mean_terms(samples, self.seat))}")
        return "\n".join(lines)


def _merge(
    roots: list[tuple[_Node, State | None]], legal: tuple[Action, ...]
) -> dict[Action, _Node]:
    """The root actions' statistics summed over every tree searched."""
    merged: dict[Action, _Node] = {}
    for root, _ in roots:
        for a in legal:
            child = root.children.get(a)
            if child is None:
                continue
            into = merged.get(a)
            if into is None:
                into = merged[a] = _Node(child.player)
                into.avail = 0
            into.visits += child.visits
            into.total += child.total
            into.avail += child.avail
    return merged


class PIMCBot(ISMCTSBot):
    """Perfect-information Monte Carlo: UCT on a few fixed determinisations, votes summed.

    Unlike `ismcts`, each tree searches one world drawn at the start of the decision, so
    its statistics are sharper but may trust what the seat cannot know (strategy fusion).

    Options: those of `ismcts`, and `determinizations`, the worlds drawn per decision.
    """

    NAME = "pimc"
    OPTIONS: ClassVar[Mapping[str, Any]] = {**ISMCTSBot.OPTIONS, "determinizations": 8}

    def __init__(self, game: Game, seat: int, seed: int = 0, **options: Any) -> None:
        super().__init__(game, seat, seed, **options)
        self.determinizations: int = _check_number(
            self.NAME, "determinizations", self.options["determinizations"], kind=int, low=1
        )

    def _roots(self, state: State) -> list[tuple[_Node, State | None]]:
        return [
            (_Node(self.seat), state.resample_from_infostate(self.seat, self.rng))
            for _ in range(self.determinizations)
        ]

    def _world(
        self, state: State, roots: list[tuple[_Node, State | None]], done: int
    ) -> tuple[_Node, State]:
        root, world = roots[done % len(roots)]
        assert world is not None
        return root, world
