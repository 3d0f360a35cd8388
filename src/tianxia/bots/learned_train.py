"""Expert iteration: self-play by the guided search, a network trained on what it did.

Each iteration plays `games` self-play games with the `learned` search (its current
network, or before the first training a uniform prior and the evaluation hook), records
at every decision the mover's observation, its legal actions and the root's visit
counts, and at the end every seat's return; then trains the network with PyTorch on the
last `window` iterations' positions (cross-entropy to the visit distribution, squared
error to the returns) and exports it to the NumPy `.npz` that play reads.

Self-play games run as Ray tasks when ray is installed and `backend` allows it, else on
a process pool, or in this process with one worker. Everything is checkpointed under
`checkpoint` (each finished game, the model and optimiser after each iteration), so a
killed run started again with the same settings continues where it stopped.

PyTorch is imported only here (extra `learn`).
"""

from __future__ import annotations

import itertools
import json
import os
from collections.abc import Callable, Iterator
from concurrent.futures import ProcessPoolExecutor, as_completed
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

import tianxia
from tianxia.adapters.encoding import encoding
from tianxia.bots.evaluation import values
from tianxia.bots.learned import LearnedBot, PolicyValueNet, _savez, header_for
from tianxia.core import Game, Match

Progress = Callable[[str, int, int], None]


@dataclass
class TrainConfig:
    """What a training run does; a checkpoint is resumed only under the same settings
    (bar `iterations`, which may grow)."""

    game: str
    players: int
    iterations: int = 10
    games: int = 16
    simulations: int = 64
    hidden: list[int] = field(default_factory=lambda: [128, 128])
    hook: float = 0.5
    noise: float = 0.25
    sample_moves: int = 20
    epochs: int = 4
    batch: int = 256
    learning_rate: float = 1e-3
    weight_decay: float = 1e-4
    window: int = 4
    seed: int = 0
    options: dict[str, Any] = field(default_factory=dict)

    def load(self) -> Game:
        return tianxia.load_game(self.game, players=self.players, **self.options)

    def identity(self) -> dict[str, Any]:
        """The settings a resumed run must share."""
        out = asdict(self)
        del out["iterations"]
        return out


_FIELDS = ("obs", "mask", "policy", "value")


def self_play_game(
    config: dict[str, Any], net: PolicyValueNet | None, seed: int
) -> dict[str, np.ndarray]:
    """One self-play game: for each decision with a choice, the mover's observation, the
    legal mask, the root's visit distribution and the final values seen from the mover
    (seats relative to it), as arrays."""
    import tianxia.bots  # noqa: F401  (a bare worker registers the games first)

    cfg = TrainConfig(**config)
    game = cfg.load()
    enc = encoding(game)
    n = game.players
    actions = game.info.num_distinct_actions
    bots = [
        LearnedBot(
            game,
            s,
            seed=seed * 16 + s,
            net=net,
            simulations=cfg.simulations,
            hook=cfg.hook,
            noise=cfg.noise,
            sample_moves=cfg.sample_moves,
        )
        for s in range(n)
    ]
    match = Match(game, seed=seed)
    rows: list[tuple[np.ndarray, np.ndarray, np.ndarray, int]] = []
    limit = game.info.max_game_length
    while True:
        match.resolve_chance()
        state = match.state
        if state.is_terminal():
            break
        if len(match.log) >= limit:
            raise ValueError(f"{game!r} ran past its max_game_length of {limit}")
        seat = state.current_player()
        bot = bots[seat]
        bot.last_visits = {}
        action = bot.act(state)
        if bot.last_visits:
            mask = np.zeros(actions, np.bool_)
            for a in state.legal_actions():
                mask[game.action_id(a)] = True
            policy = np.zeros(actions, np.float32)
            total = sum(bot.last_visits.values())
            for a, v in bot.last_visits.items():
                policy[game.action_id(a)] = v / total
            rows.append((enc.encode(state, seat), mask, policy, seat))
        match.play(action)
    final = values(match.state)
    if not rows:
        size = enc.size
        return {
            "obs": np.zeros((0, size), np.float32),
            "mask": np.zeros((0, actions), np.bool_),
            "policy": np.zeros((0, actions), np.float32),
            "value": np.zeros((0, n), np.float32),
        }
    return {
        "obs": np.stack([r[0] for r in rows]),
        "mask": np.stack([r[1] for r in rows]),
        "policy": np.stack([r[2] for r in rows]),
        "value": np.array(
            [[final[(r[3] + k) % n] for k in range(n)] for r in rows], dtype=np.float32
        ),
    }


class _SelfPlay:
    """Where self-play games run for the length of a training run: in this process, on a
    process pool, or as Ray tasks (a private loopback cluster started once, or the
    running driver's)."""

    def __init__(self, workers: int, backend: str) -> None:
        self.workers = workers
        self.backend = backend
        self._ray: Any = None
        self._started = False
        self._pool: ProcessPoolExecutor | None = None

    def __enter__(self) -> _SelfPlay:
        if self.workers <= 1:
            return self
        if self.backend in ("auto", "ray"):
            from tianxia.play.cluster import import_ray

            try:
                ray = import_ray()
            except ValueError:
                if self.backend == "ray":
                    raise
            else:
                if not ray.is_initialized():
                    ray.init(
                        address="local",
                        num_cpus=self.workers,
                        include_dashboard=False,
                        log_to_driver=False,
                        _node_ip_address="127.0.0.1",
                    )
                    self._started = True
                self._ray = ray
                return self
        self._pool = ProcessPoolExecutor(max_workers=self.workers)
        return self

    def __exit__(self, *exc: object) -> None:
        if self._pool is not None:
            self._pool.shutdown(cancel_futures=True)
        if self._started:
            self._ray.shutdown()

    def games(
        self, config: dict[str, Any], net: PolicyValueNet | None, seeds: list[int]
    ) -> Iterator[tuple[int, dict[str, np.ndarray]]]:
        """Each seed's game as it finishes."""
        ray, pool = self._ray, self._pool
        if ray is not None:
            task = ray.remote(num_cpus=1, max_retries=2)(self_play_game)
            net_ref = ray.put(net)
            pending = {task.remote(config, net_ref, s): s for s in seeds}
            try:
                while pending:
                    done, _ = ray.wait(list(pending), num_returns=1)
                    seed = pending.pop(done[0])
                    yield seed, ray.get(done[0])
            finally:
                for ref in pending:  # an interrupted run leaves no game running
                    ray.cancel(ref, force=True)
        elif pool is not None:
            futures = {pool.submit(self_play_game, config, net, s): s for s in seeds}
            try:
                for done in as_completed(futures):
                    yield futures[done], done.result()
            finally:
                for f in futures:
                    f.cancel()
        else:
            for s in seeds:
                yield s, self_play_game(config, net, s)


class _Torch:
    """The network in PyTorch, shaped as `PolicyValueNet`, with its optimiser."""

    def __init__(self, game: Game, cfg: TrainConfig) -> None:
        import torch
        from torch import nn

        self.torch = torch
        torch.manual_seed(cfg.seed)
        sizes = [encoding(game).size, *cfg.hidden]
        self.trunk = nn.ModuleList(nn.Linear(a, b) for a, b in itertools.pairwise(sizes))
        self.policy = nn.Linear(sizes[-1], game.info.num_distinct_actions)
        self.value = nn.Linear(sizes[-1], game.players)
        # A zero policy head starts from the uniform prior the untrained search used.
        nn.init.zeros_(self.policy.weight)
        nn.init.zeros_(self.policy.bias)
        self.model = nn.ModuleDict(
            {"trunk": self.trunk, "policy": self.policy, "value": self.value}
        )
        self.optimiser = torch.optim.AdamW(
            self.model.parameters(), lr=cfg.learning_rate, weight_decay=cfg.weight_decay
        )

    def forward(self, obs: Any) -> tuple[Any, Any]:
        x = obs
        for layer in self.trunk:
            x = self.torch.relu(layer(x))
        return self.policy(x), self.torch.tanh(self.value(x))

    def train(
        self, data: dict[str, np.ndarray], cfg: TrainConfig, rng: np.random.Generator
    ) -> dict[str, float]:
        """`cfg.epochs` passes over `data`; the last epoch's mean losses."""
        torch = self.torch
        obs = torch.from_numpy(data["obs"])
        mask = torch.from_numpy(data["mask"])
        target = torch.from_numpy(data["policy"])
        value = torch.from_numpy(data["value"])
        rows = len(obs)
        self.model.train()
        sums = {"policy": 0.0, "value": 0.0}
        for _ in range(cfg.epochs):
            sums = {"policy": 0.0, "value": 0.0}
            order = torch.from_numpy(rng.permutation(rows))
            for start in range(0, rows, cfg.batch):
                idx = order[start : start + cfg.batch]
                logits, v = self.forward(obs[idx])
                logits = logits.masked_fill(~mask[idx], -1e9)
                policy_loss = -(target[idx] * torch.log_softmax(logits, -1)).sum(-1).mean()
                value_loss = ((v - value[idx]) ** 2).mean()
                loss = policy_loss + value_loss
                self.optimiser.zero_grad()
                loss.backward()
                self.optimiser.step()
                sums["policy"] += float(policy_loss.detach()) * len(idx)
                sums["value"] += float(value_loss.detach()) * len(idx)
        return {k: v / max(1, rows) for k, v in sums.items()}

    def export(self, game: Game, cfg: TrainConfig, **trained: Any) -> PolicyValueNet:
        """The NumPy network (weights transposed to ``(in, out)``)."""

        def arr(t: Any) -> np.ndarray:
            return np.ascontiguousarray(t.detach().cpu().numpy().astype(np.float32))

        return PolicyValueNet(
            header_for(game, cfg.hidden, trained=trained),
            [(arr(layer.weight.T), arr(layer.bias)) for layer in self.trunk],
            (arr(self.policy.weight.T), arr(self.policy.bias)),
            (arr(self.value.weight.T), arr(self.value.bias)),
        )

    def save(self, path: Path, extra: dict[str, Any]) -> None:
        tmp = path.with_name(path.name + ".tmp")
        self.torch.save(
            {
                "model": self.model.state_dict(),
                "optimiser": self.optimiser.state_dict(),
                **extra,
            },
            tmp,
        )
        tmp.replace(path)

    def restore(self, path: Path) -> dict[str, Any]:
        saved: dict[str, Any] = self.torch.load(path, weights_only=False)
        self.model.load_state_dict(saved["model"])
        self.optimiser.load_state_dict(saved["optimiser"])
        return saved


def _game_file(folder: Path, iteration: int, seed: int) -> Path:
    return folder / f"iteration-{iteration:04d}" / f"game-{seed}.npz"


def _save_game(path: Path, data: dict[str, np.ndarray]) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_name(path.name + ".tmp.npz")
    _savez(tmp, **data)
    tmp.replace(path)


def _load_iteration(folder: Path, iteration: int) -> list[dict[str, np.ndarray]]:
    out = []
    for path in sorted((folder / f"iteration-{iteration:04d}").glob("game-*.npz")):
        if path.name.endswith(".tmp.npz"):
            continue
        with np.load(path) as f:
            out.append({k: f[k] for k in _FIELDS})
    return out


def train(
    config: TrainConfig,
    out: str | Path,
    checkpoint: str | Path | None = None,
    workers: int = 1,
    backend: str = "auto",
    progress: Progress | None = None,
) -> PolicyValueNet:
    """Run (or resume) expert iteration and write the weights to `out` after every
    iteration; the final network.

    Args:
        config: the run's settings.
        out: the `.npz` that play reads (`learned:path=...`).
        checkpoint: the folder of the run's games and model (default: `out` with
            `.train` in place of its suffix).
        workers: self-play games at once.
        backend: `auto` (Ray if installed, else processes), `ray` or `pool`.
        progress: called with (what, done, total) as games and iterations finish.

    Raises:
        ValueError: the checkpoint was made with other settings, or torch is missing.
    """
    try:
        import torch  # noqa: F401
    except ImportError as e:
        raise ValueError(f"training needs PyTorch: pip install 'tianxia[learn]' ({e})") from e
    if backend not in ("auto", "ray", "pool"):
        raise ValueError(f"backend is auto, ray or pool, not {backend!r}")
    game = config.load()
    out = Path(out)
    folder = Path(checkpoint) if checkpoint is not None else out.with_suffix(".train")
    folder.mkdir(parents=True, exist_ok=True)
    settings = folder / "settings.json"
    identity = config.identity()
    if settings.exists():
        before = json.loads(settings.read_text(encoding="utf-8"))
        if before != identity:
            changed = sorted(k for k in identity if before.get(k) != identity[k])
            raise ValueError(
                f"{folder} holds a run with other settings ({', '.join(changed)} differ); "
                "give another --checkpoint or the same settings"
            )
    else:
        settings.write_text(json.dumps(identity, indent=1), encoding="utf-8")
    learner = _Torch(game, config)
    model_path = folder / "model.pt"
    done_iterations = 0
    games_played = 0
    rng = np.random.default_rng(config.seed)
    net: PolicyValueNet | None = None
    if model_path.exists():
        saved = learner.restore(model_path)
        done_iterations = int(saved["iteration"])
        games_played = int(saved["games"])
        rng = np.random.default_rng(config.seed + done_iterations)
        net = learner.export(game, config, iterations=done_iterations, games=games_played)
    report = progress or (lambda what, done, total: None)
    report("iterations", done_iterations, config.iterations)
    cfg_dict = asdict(config)
    with _SelfPlay(workers, backend) as runner:
        for iteration in range(done_iterations, config.iterations):
            seeds = [config.seed * 1_000_003 + iteration * 10_007 + g for g in range(config.games)]
            todo = [s for s in seeds if not _game_file(folder, iteration, s).exists()]
            report("games", config.games - len(todo), config.games)
            finished = config.games - len(todo)
            for seed, data in runner.games(cfg_dict, net, todo):
                _save_game(_game_file(folder, iteration, seed), data)
                finished += 1
                report("games", finished, config.games)
            games_played += config.games
            recent = range(max(0, iteration + 1 - config.window), iteration + 1)
            parts = [g for i in recent for g in _load_iteration(folder, i)]
            data = {k: np.concatenate([p[k] for p in parts]) for k in _FIELDS}
            losses = learner.train(data, config, rng)
            trained = {
                "iterations": iteration + 1,
                "games": games_played,
                "positions": len(data["obs"]),
                "simulations": config.simulations,
                "losses": losses,
            }
            net = learner.export(game, config, **trained)
            learner.save(model_path, {"iteration": iteration + 1, "games": games_played})
            net.save(out)
            report("iterations", iteration + 1, config.iterations)
    if net is None:
        net = PolicyValueNet.load(out, game)
    return net


def default_workers() -> int:
    """Self-play games at once by default: the cores this process may use."""
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except AttributeError:  # not on Linux
        return max(1, os.cpu_count() or 1)
