"""PettingZoo environments of the three games: :func:`aec_env` for every game (agents act
one at a time) and :func:`parallel_env` for the real-time games (every agent acts at each
step). The choices they make (observations, the no-op, rewards, illegal actions, arrival
order, ends, seeding) are those of :mod:`diabolo.envs`.

>>> from diabolo.envs.pettingzoo import aec_env
>>> env = aec_env("schacht", players=3)
>>> env.reset(seed=1)
>>> env.agent_selection
'player_1'
>>> observation, reward, terminated, truncated, info = env.last()
>>> observation.shape, int(info["action_mask"].sum())
((968,), 14)
>>> while env.agents:
...     observation, reward, terminated, truncated, info = env.last()
...     mask = info["action_mask"]
...     env.step(None if terminated or truncated else int(mask.nonzero()[0][0]))
"""

from __future__ import annotations

import random
import secrets
from typing import Any, Literal

import numpy as np
import numpy.typing as npt
from gymnasium import spaces
from pettingzoo import AECEnv, ParallelEnv

import diabolo
from diabolo.errors import IllegalMoveError, OptionError
from diabolo.registry import Game, State, is_real_time

__all__ = ["DiaboloAECEnv", "DiaboloParallelEnv", "aec_env", "parallel_env"]

Observation = npt.NDArray[np.float32] | dict[str, npt.NDArray[Any]]
Reward = Literal["score", "final"]
Illegal = Literal["raise", "penalise"]
MaskIn = Literal["info", "observation"]


class _Table:
    """What both kinds of environment share: the game, its spaces, the state, the seeded
    arrival order, and a seat's action applied with the chosen rewards and illegal-action
    rule."""

    def __init__(
        self,
        name: str,
        options: dict[str, Any],
        reward: str,
        illegal: str,
        illegal_penalty: float,
        idle_limit: int,
        max_steps: int | None,
        claims: int | None,
        action_mask: str,
    ) -> None:
        if reward not in ("score", "final"):
            raise OptionError(f'reward must be "score" or "final", got {reward!r}')
        if illegal not in ("raise", "penalise"):
            raise OptionError(f'illegal must be "raise" or "penalise", got {illegal!r}')
        if action_mask not in ("info", "observation"):
            raise OptionError(f'action_mask must be "info" or "observation", got {action_mask!r}')
        if not isinstance(idle_limit, int) or idle_limit < 1:
            raise OptionError(f"idle_limit must be a whole number >= 1, got {idle_limit!r}")
        if max_steps is not None and (not isinstance(max_steps, int) or max_steps < 1):
            raise OptionError(f"max_steps must be a whole number >= 1 or None, got {max_steps!r}")
        if claims is not None and (not isinstance(claims, int) or isinstance(claims, bool) or claims < 1):
            raise OptionError(f"claims must be a number of claims >= 1 or None, got {claims!r}")
        self.game: Game = diabolo.load(name, **options)
        if claims is not None and not hasattr(self.game, "compact_actions"):
            raise OptionError(f"claims: {name} has no compact action space (Knizia's ranked claims)")
        self.claims = claims
        self.views: dict[int, npt.NDArray[np.int32]] = {}  # compact space: each seat's last view
        self.real_time = self.game.real_time
        self.reward, self.illegal, self.illegal_penalty = reward, illegal, float(illegal_penalty)
        self.idle_limit, self.max_steps = idle_limit, max_steps
        self.players = self.game.players
        ids = self.game.num_actions if claims is None else self.game.compact_actions(claims)  # type: ignore[attr-defined]
        self.wait = ids if self.real_time else -1
        actions = ids + (1 if self.real_time else 0)
        low, high = self.game.observation_tensor_bounds
        self.mask_in_info = action_mask == "info"
        tensor = spaces.Box(low, high, dtype=np.float32)
        mask = spaces.Box(0, 1, (actions,), dtype=np.int8)
        self.observation_space: spaces.Box | spaces.Dict = (
            tensor if self.mask_in_info else spaces.Dict({"observation": tensor, "action_mask": mask})
        )
        self.action_space = spaces.Discrete(actions)
        self.state: State = self.game.new_state(seed=0)
        self.arrivals = random.Random(0)
        self.steps = 0
        self.idle = 0

    def reset(self, seed: int | None) -> None:
        seed = secrets.randbits(63) if seed is None else int(seed)
        self.state = self.game.new_state(seed=seed)
        self.arrivals = random.Random(diabolo.derive_seed(seed, 1))
        self.steps = 0
        self.idle = 0
        self.views = {}

    def observe(self, seat: int) -> Observation:
        tensor = self.state.observation_tensor(seat)
        if self.mask_in_info:
            return tensor
        return {"observation": tensor, "action_mask": self.mask(seat)}

    def info(self, seat: int) -> dict[str, Any]:
        """The seat's info beside its observation: with the mask in the info, its mask."""
        return {"action_mask": self.mask(seat)} if self.mask_in_info else {}

    def mask(self, seat: int) -> npt.NDArray[np.int8]:
        """The seat's legal actions now, 1 for each (the no-op too, in real time)."""
        mask = np.zeros(self.action_space.n, dtype=np.int8)
        if self.claims is None:
            mask[: self.game.num_actions] = self.state.legal_action_mask(seat)
        else:
            view = self.views[seat] = self.state.compact_view(seat, self.claims)  # type: ignore[attr-defined]
            mask[: len(view)] = view >= 0
        if self.real_time and not self.state.is_terminal:
            mask[self.wait] = 1
        return mask

    def action_id(self, action: Any) -> int:
        """``action`` as an id of the action space; OptionError for anything else."""
        if isinstance(action, (bool, np.bool_)) or not isinstance(action, (int, np.integer)):
            raise OptionError(f"an action is an integer id, got {action!r}")
        if not 0 <= action < self.action_space.n:
            raise OptionError(f"an action is an id 0..{self.action_space.n - 1}, got {action}")
        return int(action)

    def engine_action(self, seat: int, action: int) -> int | None:
        """The engine's id of the seat's ``action`` (not the no-op): itself, or in the
        compact space what it stood for in the seat's last observation (None: nothing)."""
        if self.claims is None:
            return action
        if seat not in self.views:
            self.mask(seat)
        engine = int(self.views[seat][action])
        return engine if engine >= 0 else None

    def play(self, seat: int, action: int) -> tuple[list[float], dict[str, Any]]:
        """Applies action id ``action`` of ``seat``: each seat's reward and the seat's
        info. An illegal action raises, or is penalised and changes nothing."""
        if action == self.wait:
            return [0.0] * self.players, {}
        engine = self.engine_action(seat, action)
        try:
            if engine is None:
                raise IllegalMoveError(
                    f"compact action {action} stands for no move now (claims={self.claims})", code="no_such_claim"
                )
            self.state.apply(engine, player=seat)
        except IllegalMoveError as error:
            if self.illegal == "raise":
                raise
            rewards = [0.0] * self.players
            rewards[seat] = self.illegal_penalty
            return rewards, {"illegal": error.clause, "illegal_code": error.code}
        return self.rewards(), {}

    def rewards(self) -> list[float]:
        """Each seat's reward for the move just applied."""
        if self.reward == "score":
            return self.state.rewards()
        return self.state.returns() if self.state.is_terminal else [0.0] * self.players

    def count(self, moved: bool) -> None:
        """Counts a step, and whether anyone moved in it, for the ends."""
        self.steps += 1
        self.idle = 0 if moved else self.idle + 1

    @property
    def truncated(self) -> bool:
        if self.max_steps is not None and self.steps >= self.max_steps:
            return True
        return self.real_time and self.idle >= self.idle_limit * self.players

    def render(self) -> str:
        return str(self.state)


def _agent(seat: int) -> str:
    return f"player_{seat}"


class _Environment:
    """What both environments share: the table, the agents, the spaces, rendering."""

    _table: _Table
    render_mode: str | None
    possible_agents: list[str]
    _seat: dict[str, int]

    def _set_up(
        self,
        game: str,
        options: dict[str, Any],
        reward: str,
        illegal: str,
        illegal_penalty: float,
        idle_limit: int,
        max_steps: int | None,
        render_mode: str | None,
        claims: int | None,
        action_mask: str,
    ) -> None:
        if render_mode not in (None, "ansi", "human"):
            raise OptionError(f'render_mode must be None, "ansi" or "human", got {render_mode!r}')
        self._table = _Table(
            game, options, reward, illegal, illegal_penalty, idle_limit, max_steps, claims, action_mask
        )
        self.render_mode = render_mode
        self.possible_agents = [_agent(seat) for seat in range(self._table.players)]
        self._seat = {agent: seat for seat, agent in enumerate(self.possible_agents)}

    @property
    def state_now(self) -> State:
        """The game's state (secrets included: for the code around the environment, not
        for a policy)."""
        return self._table.state

    @property
    def wait(self) -> int | None:
        """The no-op's action id in a real-time game (the last id); None in Schacht."""
        return self._table.wait if self._table.real_time else None

    def observation_space(self, agent: str) -> spaces.Box | spaces.Dict:
        return self._table.observation_space

    def action_space(self, agent: str) -> spaces.Discrete:
        return self._table.action_space

    def render(self) -> str | None:
        if self.render_mode == "human":
            print(self._table.render())
            return None
        return self._table.render()

    def close(self) -> None:
        pass


class DiaboloAECEnv(_Environment, AECEnv[str, Observation, int]):
    """A game as a PettingZoo AEC environment; make one with :func:`aec_env`."""

    metadata = {"name": "diabolo_aec_v0", "render_modes": ["ansi", "human"], "is_parallelizable": False}

    def __init__(
        self,
        game: str,
        *,
        reward: Reward = "score",
        illegal: Illegal = "penalise",
        illegal_penalty: float = -1.0,
        idle_limit: int = 8,
        max_steps: int | None = None,
        render_mode: str | None = None,
        claims: int | None = None,
        action_mask: MaskIn = "info",
        **options: Any,
    ) -> None:
        super().__init__()
        self._set_up(
            game, options, reward, illegal, illegal_penalty, idle_limit, max_steps, render_mode, claims, action_mask
        )
        self._asked = -1
        self.reset()

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        self._table.reset(seed)
        self.agents = self.possible_agents[:]
        self.rewards = {agent: 0.0 for agent in self.agents}
        self._cumulative_rewards = {agent: 0.0 for agent in self.agents}
        self.terminations = {agent: False for agent in self.agents}
        self.truncations = {agent: False for agent in self.agents}
        self.infos: dict[str, dict[str, Any]] = {agent: {} for agent in self.agents}
        self._asked = -1
        self.agent_selection = self._next_agent()
        self._tell_mask()

    def _tell_mask(self) -> None:
        """With the mask in the info: the legal actions of the agent to act, in its info
        (once the game ended, in every agent's, each of which steps None once)."""
        over = any(self.terminations.values()) or any(self.truncations.values())
        for agent in self.agents if over else [self.agent_selection]:
            if agent in self.infos:
                self.infos[agent].update(self._table.info(self._seat[agent]))

    def observe(self, agent: str) -> Observation:
        return self._table.observe(self._seat[agent])

    def step(self, action: int | None) -> None:
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        seat = self._seat[agent]
        self._cumulative_rewards[agent] = 0.0
        version = self._table.state.version
        rewards, info = self._table.play(seat, self._table.action_id(action))
        self._table.count(self._table.state.version != version)
        self.rewards = {a: rewards[self._seat[a]] for a in self.agents}
        self.infos = {a: {} for a in self.agents}
        self.infos[agent] = info
        if self._table.state.is_terminal:
            self.terminations = {a: True for a in self.agents}
        elif self._table.truncated:
            self.truncations = {a: True for a in self.agents}
        elif "illegal" not in info:
            self._asked = seat
            self.agent_selection = self._next_agent()
        self._tell_mask()
        self._accumulate_rewards()
        if self.render_mode == "human":
            self.render()

    def _next_agent(self) -> str:
        """Who acts next: the lowest pending seat in a turn-based game; in real time the
        next seat after the last one asked, in seat order, that has a legal move."""
        pending = self._table.state.pending_seats
        if not pending:
            return self.agent_selection if self._asked >= 0 else self.possible_agents[0]
        if not self._table.real_time:
            return _agent(pending[0])
        after = [seat for seat in pending if seat > self._asked]
        return _agent(after[0] if after else pending[0])


class DiaboloParallelEnv(_Environment, ParallelEnv[str, Observation, int]):
    """A real-time game as a PettingZoo parallel environment; make one with
    :func:`parallel_env`."""

    metadata = {"name": "diabolo_parallel_v0", "render_modes": ["ansi", "human"]}

    def __init__(
        self,
        game: str,
        *,
        reward: Reward = "score",
        illegal: Illegal = "penalise",
        illegal_penalty: float = -1.0,
        idle_limit: int = 8,
        max_steps: int | None = None,
        render_mode: str | None = None,
        claims: int | None = None,
        action_mask: MaskIn = "info",
        **options: Any,
    ) -> None:
        if not is_real_time(game):
            raise OptionError(f"{game} is played in turns: use aec_env({game!r}) for it; parallel_env is for real time")
        self._set_up(
            game, options, reward, illegal, illegal_penalty, idle_limit, max_steps, render_mode, claims, action_mask
        )
        self.agents = self.possible_agents[:]

    def reset(
        self, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[dict[str, Observation], dict[str, dict[str, Any]]]:
        self._table.reset(seed)
        self.agents = self.possible_agents[:]
        return self._observations(), {agent: self._table.info(self._seat[agent]) for agent in self.agents}

    def _observations(self) -> dict[str, Observation]:
        return {agent: self._table.observe(seat) for seat, agent in enumerate(self.possible_agents)}

    def step(
        self, actions: dict[str, int]
    ) -> tuple[
        dict[str, Observation],
        dict[str, float],
        dict[str, bool],
        dict[str, bool],
        dict[str, dict[str, Any]],
    ]:
        """Every agent's action (WAIT to let time pass); they arrive in an order drawn
        from the seeded generator. A move made illegal by an earlier arrival of the same
        step lost the race."""
        missing = [agent for agent in self.agents if agent not in actions]
        if missing:
            raise OptionError(f"every agent acts at each step (WAIT to let time pass); missing: {missing}")
        table = self._table
        rewards = {agent: 0.0 for agent in self.agents}
        infos: dict[str, dict[str, Any]] = {agent: {} for agent in self.agents}
        ids = {agent: table.action_id(actions[agent]) for agent in self.agents}
        legal = {agent: self._table.mask(self._seat[agent]) for agent in self.agents}
        order = self.agents[:]
        table.arrivals.shuffle(order)
        version = table.state.version
        for agent in order:
            seat, action = self._seat[agent], ids[agent]
            if table.state.is_terminal or action == table.wait:
                continue
            engine = table.engine_action(seat, action)  # what it stood for when the step began
            if legal[agent][action] and engine is not None and not table.state.legal_action_mask(seat)[engine]:
                infos[agent]["lost_race"] = True  # legal when the step began: an earlier arrival won
                continue
            moved, info = table.play(seat, action)
            for other in self.agents:
                rewards[other] += moved[self._seat[other]]
            infos[agent].update(info)
        table.count(table.state.version != version)
        terminal = table.state.is_terminal
        truncated = not terminal and table.truncated
        terminations = {agent: terminal for agent in self.agents}
        truncations = {agent: truncated for agent in self.agents}
        observations = self._observations()
        for agent in self.agents:
            infos[agent].update(self._table.info(self._seat[agent]))
        if terminal or truncated:
            self.agents = []
        if self.render_mode == "human":
            self.render()
        return observations, rewards, terminations, truncations, infos


def aec_env(game: str, **options: Any) -> DiaboloAECEnv:
    """A PettingZoo AEC environment of ``game`` (any of the three). ``options`` are the
    game's rule options and the environment's: ``reward`` ("score" or "final"), ``illegal``
    ("penalise", the default: an illegal action changes nothing and costs
    ``illegal_penalty``; or "raise"), ``illegal_penalty``, ``idle_limit``, ``max_steps``,
    ``render_mode`` ("ansi" or "human"), ``action_mask`` ("info", the default: the
    observation is the seat's observation tensor and the legal actions are
    ``info["action_mask"]``, as in the Gymnasium environment; or "observation": a dict of
    ``observation`` and ``action_mask``, as PettingZoo's classic games have it) and, for
    Knizia, ``claims`` (the compact action space of the k best claims); see
    :mod:`diabolo.envs`.

    >>> from diabolo.envs.pettingzoo import aec_env
    >>> env = aec_env("duvelen", players=2)
    >>> env.reset(seed=3)
    >>> env.possible_agents
    ['player_0', 'player_1']
    >>> env.wait == env.state_now.game.num_actions  # the no-op, the last action id
    True
    """
    return DiaboloAECEnv(game, **options)


def parallel_env(game: str, **options: Any) -> DiaboloParallelEnv:
    """A PettingZoo parallel environment of a real-time ``game`` (Duvelen or Knizia), with
    the options of :func:`aec_env`.

    >>> from diabolo.envs.pettingzoo import parallel_env
    >>> env = parallel_env("duvelen", players=3)
    >>> observations, infos = env.reset(seed=3)
    >>> _ = env.step({agent: env.wait for agent in env.agents})
    """
    return DiaboloParallelEnv(game, **options)
