"""The learned bot: information-set MCTS guided by a small policy-value network.

The network reads a seat's observation in the one research encoding
(`tianxia.adapters.encoding`, seats relative to the observer) and gives logits over the
game's action ids and a value for every seat. The search (`learned`) is `ismcts`'s walk
over determinisations of the bot's information state, with two changes taken from
AlphaZero: a decision is chosen by PUCT, its prior the network's policy at the first
world that reached it, and a new decision is scored by the network's values (blended
with the evaluation hook by `hook`) instead of a rollout.

Play needs NumPy only: the weights are a small `.npz` written by `tianxia train`
(`tianxia.bots.learned_train`, PyTorch) and read by `PolicyValueNet.load`, which refuses
weights made for another title, player count, options, rules version or encoding.
"""

from __future__ import annotations

import itertools
import json
import math
import time
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any, ClassVar

import numpy as np

from tianxia.adapters.encoding import ENCODING_VERSION, encoding
from tianxia.bots.base import Bot, _check_number, in_words, move_in_words
from tianxia.bots.evaluation import values
from tianxia.core import CHANCE, TERMINAL, Action, Game, State, sample_chance

WEIGHTS = Path(__file__).parent / "weights"
FORMAT = "tianxia-policy-value"
FORMAT_VERSION = 1
_TOP = 5
# NumPy's stubs type the keyword arrays as its `allow_pickle` flag.
_savez: Any = np.savez_compressed


def weights_path(game: Game) -> Path:
    """Where the shipped weights of `game`'s title and player count lie (if any)."""
    return WEIGHTS / f"{game.NAME}-{game.players}.npz"


_FITS: dict[tuple[str, int], bool] = {}


def has_weights(game: Game) -> bool:
    """Whether trained weights ship for `game`'s title, player count and options."""
    path = weights_path(game)
    if not path.exists():
        return False
    # Asked per lobby page and per seat: the answer is kept while the file is unchanged.
    key = (json.dumps(game.spec(), sort_keys=True, default=repr), path.stat().st_mtime_ns)
    found = _FITS.get(key)
    if found is None:
        try:
            PolicyValueNet.load(path, game)
            found = True
        except ValueError:
            found = False
        _FITS[key] = found
    return found


def header_for(game: Game, hidden: list[int], **extra: Any) -> dict[str, Any]:
    """The header a network for `game` carries: what it was made for, and `extra`
    (how it was trained)."""
    spec = game.spec()
    return {
        "format": FORMAT,
        "format_version": FORMAT_VERSION,
        "game": game.NAME,
        "title": game.info.title,
        "players": game.players,
        "options": json.loads(json.dumps(spec["options"], default=repr)),
        "rules_version": game.info.version,
        "encoding_version": ENCODING_VERSION,
        "observation_size": encoding(game).size,
        "actions": game.info.num_distinct_actions,
        "hidden": list(hidden),
        **extra,
    }


def mismatch(header: Mapping[str, Any], game: Game) -> str | None:
    """One sentence saying how weights with `header` differ from what `game` needs, or
    None when they fit."""
    want = header_for(game, list(header.get("hidden", [])))
    if header.get("format") != FORMAT:
        return f"the file is not {FORMAT} weights"
    if header.get("format_version") != FORMAT_VERSION:
        return (
            f"the file is in weights format {header.get('format_version')}, "
            f"this version reads format {FORMAT_VERSION}"
        )
    if header.get("game") != want["game"]:
        return f"the weights are for {header.get('title')}, not {want['title']}"
    if header.get("players") != want["players"]:
        return (
            f"the weights are for {header.get('title')} at {header.get('players')} players, "
            f"not at {want['players']}"
        )
    if header.get("options") != want["options"]:
        return (
            f"the weights are for the options {header.get('options')}, "
            f"this game has {want['options']}"
        )
    if header.get("rules_version") != want["rules_version"]:
        return (
            f"the weights were trained under rules version {header.get('rules_version')} "
            f"of {want['title']}, this is version {want['rules_version']}"
        )
    if header.get("encoding_version") != want["encoding_version"]:
        return (
            f"the weights read observation encoding {header.get('encoding_version')}, "
            f"the environments now write encoding {want['encoding_version']}"
        )
    for key, what in (("observation_size", "observation"), ("actions", "action ids")):
        if header.get(key) != want[key]:
            return f"the weights expect {header.get(key)} {what}, this game has {want[key]}"
    return None


@dataclass
class PolicyValueNet:
    """A multilayer perceptron: ReLU trunk, then policy logits (one per action id) and a
    value per seat, `tanh`-squashed, seats relative to the observer (+0 is the
    observer). Runs in NumPy (float32).

    `layers` holds the trunk's ``(weight, bias)`` pairs, weight shaped ``(in, out)``;
    `policy` and `value` the heads'.
    """

    header: dict[str, Any]
    layers: list[tuple[np.ndarray, np.ndarray]]
    policy: tuple[np.ndarray, np.ndarray]
    value: tuple[np.ndarray, np.ndarray]

    @classmethod
    def initial(cls, game: Game, hidden: list[int], seed: int = 0) -> PolicyValueNet:
        """An untrained network for `game` (He-initialised; a zero policy head, so its
        prior is uniform, and a zero value head)."""
        rng = np.random.default_rng(seed)
        sizes = [encoding(game).size, *hidden]
        layers = [
            (
                (rng.standard_normal((a, b)) * math.sqrt(2.0 / a)).astype(np.float32),
                np.zeros(b, np.float32),
            )
            for a, b in itertools.pairwise(sizes)
        ]
        width = sizes[-1]
        actions, players = game.info.num_distinct_actions, game.players
        return cls(
            header_for(game, hidden),
            layers,
            (np.zeros((width, actions), np.float32), np.zeros(actions, np.float32)),
            (np.zeros((width, players), np.float32), np.zeros(players, np.float32)),
        )

    def forward(self, observations: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """Logits ``(batch, actions)`` and values ``(batch, players)`` of a batch of
        observations ``(batch, observation_size)`` (or one observation, unbatched)."""
        x = np.asarray(observations, dtype=np.float32)
        for w, b in self.layers:
            x = np.maximum(x @ w + b, 0.0)
        logits = x @ self.policy[0] + self.policy[1]
        value = np.tanh(x @ self.value[0] + self.value[1])
        return logits, value

    def arrays(self) -> dict[str, np.ndarray]:
        """The weights by name, as the `.npz` stores them."""
        out: dict[str, np.ndarray] = {}
        for i, (w, b) in enumerate(self.layers):
            out[f"trunk{i}.weight"], out[f"trunk{i}.bias"] = w, b
        out["policy.weight"], out["policy.bias"] = self.policy
        out["value.weight"], out["value.bias"] = self.value
        return out

    def save(self, path: str | Path) -> Path:
        """Write the weights and header to `path` (a `.npz`), replacing it at once."""
        path = Path(path)
        path.parent.mkdir(parents=True, exist_ok=True)
        tmp = path.with_name(path.name + ".tmp.npz")
        header = np.array(json.dumps(self.header, sort_keys=True))
        _savez(tmp, header=header, **self.arrays())
        tmp.replace(path)
        return path

    @classmethod
    def load(cls, path: str | Path, game: Game | None = None) -> PolicyValueNet:
        """The network stored at `path`; with `game`, checked to fit it.

        Raises:
            ValueError: the file is missing or not weights, or (with `game`) it was made
                for another title, player count, options, rules version or encoding;
                the message says which in one sentence.
        """
        path = Path(path)
        try:
            with np.load(path, allow_pickle=False) as f:
                data = {k: f[k] for k in f.files}
        except FileNotFoundError:
            raise ValueError(f"no weights at {path}") from None
        except (OSError, ValueError) as e:
            raise ValueError(f"{path} is not a weights file ({e})") from None
        try:
            header = json.loads(str(data.pop("header")))
            depth = len(header["hidden"])
            layers = [(data[f"trunk{i}.weight"], data[f"trunk{i}.bias"]) for i in range(depth)]
            net = cls(
                header,
                layers,
                (data["policy.weight"], data["policy.bias"]),
                (data["value.weight"], data["value.bias"]),
            )
        except (KeyError, TypeError, json.JSONDecodeError) as e:
            raise ValueError(f"{path} is not a weights file (missing {e})") from None
        if game is not None:
            why = mismatch(header, game)
            if why is not None:
                raise ValueError(f"{path} does not fit {game!r}: {why}")
            net.check_shapes(path)
        return net

    def check_shapes(self, where: object = "the weights") -> None:
        """Refuse arrays whose shapes disagree with the header."""
        sizes = [self.header["observation_size"], *self.header["hidden"]]
        expected = [(a, b) for a, b in itertools.pairwise(sizes)]
        found = [w.shape for w, _ in self.layers]
        width = sizes[-1]
        if (
            found != expected
            or self.policy[0].shape != (width, self.header["actions"])
            or self.value[0].shape != (width, self.header["players"])
        ):
            raise ValueError(f"{where}: the arrays' shapes disagree with the header")


class _Node:
    """One action taken at an information set (visits, value for the seat that took
    it, availability), and the decision that follows it: the network's logits there."""

    __slots__ = ("avail", "children", "logits", "player", "prior", "total", "visits")

    def __init__(self, player: int) -> None:
        self.children: dict[Action, _Node] = {}
        self.logits: np.ndarray | None = None
        self.prior: dict[Action, float] = {}
        self.visits = 0
        self.total = 0.0
        self.avail = 1
        self.player = player


class LearnedBot(Bot):
    """IS-MCTS with a policy-value network as PUCT prior and leaf value.

    Options:
        path: the weights (`.npz`); `auto` (default): the weights shipped for the
            variant, and where none ship, the search with a uniform prior and the
            evaluation hook's values (what training starts from; `explain` says so);
            `none`: that search whatever ships.
        simulations: simulations per decision (default 200 when no time limit is set).
        time_limit: seconds per decision; with both set, whichever ends first.
        exploration: the PUCT constant.
        hook: the weight of the evaluation hook in a new decision's value, the
            network's taking the rest (1: the hook alone, 0: the network alone).
        chance: `closed` or `open`, as for `ismcts` (the game's `ismcts` default).
        noise: the share of Dirichlet noise mixed into the root's prior (self-play).
        sample_moves: the bot's first this many decisions are drawn in proportion to
            the root's visits instead of taking the most visited (self-play).
    """

    NAME = "learned"
    OPTIONS: ClassVar[Mapping[str, Any]] = {
        "path": "auto",
        "simulations": None,
        "time_limit": None,
        "exploration": 1.5,
        "hook": 0.5,
        "chance": None,
        "noise": 0.0,
        "sample_moves": 0,
    }

    def __init__(
        self,
        game: Game,
        seat: int,
        seed: int = 0,
        net: PolicyValueNet | None = None,
        **options: Any,
    ) -> None:
        super().__init__(game, seat, seed, **options)
        o = self.options
        sims, limit = o["simulations"], o["time_limit"]
        if sims is not None:
            sims = _check_number(self.NAME, "simulations", sims, kind=int, low=1)
        if limit is not None:
            limit = _check_number(self.NAME, "time_limit", limit, kind=float, low=0.001)
        if sims is None and limit is None:
            sims = 200
        self.simulations: int | None = sims
        self.time_limit: float | None = limit
        self.exploration: float = _check_number(
            self.NAME, "exploration", o["exploration"], kind=float, low=0.0
        )
        self.hook: float = _check_number(self.NAME, "hook", o["hook"], kind=float, low=0, high=1)
        self.noise: float = _check_number(self.NAME, "noise", o["noise"], kind=float, low=0, high=1)
        self.sample_moves: int = _check_number(
            self.NAME, "sample_moves", o["sample_moves"], kind=int, low=0
        )
        chance = o["chance"]
        if chance is None:
            chance = getattr(game.search, "SEARCH_DEFAULTS", {}).get("chance", "closed")
            if chance not in ("open", "closed"):
                chance = "closed"
        if chance not in ("open", "closed"):
            raise ValueError(f"{self.NAME}: option chance must be open or closed, not {chance!r}")
        self.closed: bool = chance == "closed"
        path = o["path"]
        if net is not None:
            why = mismatch(net.header, game)
            if why is not None:
                raise ValueError(f"{self.NAME}: the network does not fit {game!r}: {why}")
            self.net: PolicyValueNet | None = net
        elif path is None or str(path) == "none":  # `none` reads as None in a bot spec
            self.net = None
        elif not isinstance(path, str | Path):
            raise ValueError(f"{self.NAME}: option path must be a file name, not {path!r}")
        elif str(path) == "auto":
            shipped = weights_path(game)
            self.net = PolicyValueNet.load(shipped, game) if shipped.exists() else None
        else:
            self.net = PolicyValueNet.load(path, game)
        # Without a network the hook is the only judge of a position.
        self.hook_weight = self.hook if self.net is not None else 1.0
        self.encoding = encoding(game)
        self._abstract: Any = getattr(game.search, "search_actions", None)
        self._decisions = 0
        self.last_simulations = 0
        self.last_seconds = 0.0
        # The root's visits per action after the last search (the self-play target).
        self.last_visits: dict[Action, int] = {}

    def _evaluate(self, node: _Node, state: State, seat: int) -> list[float]:
        """Set `node`'s logits from `seat`'s observation of `state`; every seat's value."""
        hook = values(state) if self.hook_weight > 0 else None
        if self.net is None:
            node.logits = np.zeros(0, np.float32)
            assert hook is not None
            return hook
        logits, rel = self.net.forward(self.encoding.encode(state, seat))
        node.logits = logits
        n = self.game.players
        net = [0.0] * n
        for r in range(n):
            net[(seat + r) % n] = float(rel[r])
        if hook is None:
            return net
        w = self.hook_weight
        return [(1.0 - w) * a + w * b for a, b in zip(net, hook, strict=True)]

    def _prior(self, node: _Node, a: Action) -> float:
        """`a`'s unnormalised prior at `node` (uniform without a network)."""
        p = node.prior.get(a)
        if p is None:
            logits = node.logits
            if logits is None or not len(logits):
                p = 1.0
            else:
                # Logits are bounded by the trained heads; the clip keeps exp finite.
                p = math.exp(min(60.0, float(logits[self.game.action_id(a)])))
            node.prior[a] = p
        return p

    def search(self, state: State, legal: tuple[Action, ...]) -> dict[Action, _Node]:
        """Run the search from `state` (the bot's seat to move); the root's children."""
        budget = self.simulations if self.simulations is not None else math.inf
        start = time.perf_counter()
        deadline = start + self.time_limit if self.time_limit is not None else math.inf
        root = _Node(self.seat)
        self._evaluate(root, state.resample_from_infostate(self.seat, self.rng), self.seat)
        if self.noise > 0 and len(legal) > 1:
            # Dirichlet noise over the legal actions, in AlphaZero's proportions, so
            # self-play keeps trying moves the network has written off.
            alpha = min(1.0, 10.0 / len(legal))
            gamma = [self.rng.gammavariate(alpha, 1.0) for _ in legal]
            total = sum(gamma) or 1.0
            norm = sum(self._prior(root, a) for a in legal)
            for a, g in zip(legal, gamma, strict=True):
                p = self._prior(root, a) / norm
                root.prior[a] = (1 - self.noise) * p + self.noise * g / total
        done = 0
        while done < budget:
            self._simulate(root, state.resample_from_infostate(self.seat, self.rng))
            done += 1
            if deadline != math.inf and time.perf_counter() >= deadline:
                break
        self.last_simulations = done
        self.last_seconds = time.perf_counter() - start
        return {a: root.children[a] for a in legal if a in root.children}

    def _simulate(self, root: _Node, state: State) -> None:
        rng, c, closed = self.rng, self.exploration, self.closed
        node = root
        path: list[_Node] = []
        while True:
            p = state.current_player()
            if p == TERMINAL:
                result = values(state)
                break
            if p == CHANCE:
                outcome = sample_chance(state, rng)
                if closed:
                    below = node.children.get(outcome)
                    if below is None:
                        below = node.children[outcome] = _Node(CHANCE)
                    node = below
                state = state.apply_unchecked(outcome)
                continue
            if node.logits is None:
                result = self._evaluate(node, state, p)
                break
            legal = state.legal_actions()
            if self._abstract is not None:
                legal = self._abstract(state, legal)
            children = node.children
            priors = [self._prior(node, a) for a in legal]
            norm = sum(priors)
            scale = c * math.sqrt(node.visits + 1) / norm
            best_score = -math.inf
            best_action = legal[0]
            for a, prior in zip(legal, priors, strict=True):
                child = children.get(a)
                if child is None:
                    score = scale * prior
                else:
                    child.avail += 1
                    q = child.total / child.visits if child.visits else 0.0
                    score = q + scale * prior / (1 + child.visits)
                if score > best_score:
                    best_score, best_action = score, a
            child = children.get(best_action)
            if child is None:
                child = children[best_action] = _Node(p)
            node = child
            path.append(node)
            state = state.apply_unchecked(best_action)
        for n in path:
            n.visits += 1
            n.total += result[n.player]
        root.visits += 1

    def _choose(self, state: State, legal: tuple[Action, ...]) -> Action:
        if self._abstract is not None:
            legal = self._abstract(state, legal)
        tried = self.search(state, legal)
        self.last_visits = {a: n.visits for a, n in tried.items()}
        ranked = sorted(
            tried.items(), key=lambda an: (-an[1].visits, -an[1].total / max(1, an[1].visits))
        )
        if not ranked:
            choice = legal[0]
        elif self._decisions < self.sample_moves:
            weights = [n.visits for _, n in ranked]
            choice = self.rng.choices([a for a, _ in ranked], weights=weights)[0]
        else:
            choice = ranked[0][0]
        self._decisions += 1
        self._explanation = self._describe(choice, ranked)
        done = self.last_simulations
        chosen = self.last_visits.get(choice, 0)
        second = next((a for a, _ in ranked if a != choice), None)
        twice = self.last_visits.get(second, 0) if second is not None else 0
        self._reason = lambda: in_words(
            "search",
            move_in_words(state, choice),
            twice,
            move_in_words(state, second) if second is not None else "",
            chosen,
            done,
        )
        return choice

    def _describe(self, choice: Action, ranked: list[tuple[Action, _Node]]) -> str:
        speed = self.last_simulations / self.last_seconds if self.last_seconds > 0 else 0.0
        if self.net is None:
            guide = "no trained weights for this variant: a uniform prior, the hook's values"
        else:
            trained = self.net.header.get("trained", {})
            games = trained.get("games")
            guide = f"network {self.net.header['hidden']}" + (
                f" trained on {games} self-play games" if games else ""
            )
            guide += (
                f", leaf value {1 - self.hook_weight:.2f} network + {self.hook_weight:.2f} hook"
            )
        lines = [
            f"{self.NAME}: {choice} after {self.last_simulations} simulations in "
            f"{self.last_seconds:.2f}s ({speed:.0f}/s); {guide}"
        ]
        for a, n in ranked[:_TOP]:
            lines.append(f"  {a}: {n.visits} visits, value {n.total / max(1, n.visits):+.3f}")
        return "\n".join(lines)


__all__ = [
    "FORMAT",
    "FORMAT_VERSION",
    "LearnedBot",
    "PolicyValueNet",
    "has_weights",
    "header_for",
    "mismatch",
    "weights_path",
]
