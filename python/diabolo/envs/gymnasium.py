"""Gymnasium environments: one seat of a game against diabolo's C++ bots, which play the
other seats inside the engine (a vector env of one game, ``game.vector_env``), not in a
Python loop. ``pip install "diabolo[gymnasium]"``.

Importing this module registers ``diabolo/Schacht-v0``, ``diabolo/Duvelen-v0`` and
``diabolo/Knizia-v0`` for ``gymnasium.make`` (``gymnasium.register_envs(diabolo.envs.gymnasium)``,
Gymnasium's convention, says so to linters).

The observation is the seat's observation tensor (a Box with the game's bounds), the
action an action id (``Discrete``; in real time the last id is the no-op), and the legal
actions are ``info["action_mask"]`` and ``env.action_masks()``: the same int8 array of 0
and 1, the form ``action_space.sample(mask=...)`` takes. ``seat=None`` puts the learner in
seat ``e % players`` in episode ``e`` (``info["seat"]`` says which). Every action of the action
space is a valid input, as Gymnasium expects: an illegal one is penalised by default
(``illegal="penalise"``: nothing changes, the reward is ``penalty``), or raises with
``illegal="raise"``. The other choices (rewards, real time, ends) are those of the vector
env (docs/ai.rst).

>>> from diabolo.envs.gymnasium import DiaboloEnv
>>> env = DiaboloEnv("schacht", players=3, opponents="heuristic")
>>> observation, info = env.reset(seed=1)
>>> observation.shape, info["action_mask"].shape
((968,), (77,))
>>> action = int(info["action_mask"].argmax())
>>> observation, reward, terminated, truncated, info = env.step(action)
"""

from __future__ import annotations

from typing import Any, SupportsFloat

import gymnasium
import numpy as np
import numpy.typing as npt
from gymnasium import spaces

import diabolo
from diabolo.errors import OptionError

__all__ = ["DiaboloEnv", "DiaboloVectorEnv", "register", "table_image"]

Observation = npt.NDArray[np.float32]


RENDER_MODES = ["ansi", "rgb_array"]


def table_image(text: str) -> npt.NDArray[np.uint8]:
    """The text picture of a table (``str(state)``) drawn as an RGB image, height x width
    x 3 uint8, light on dark, each character a 6 x 11 cell of Pillow's built-in fixed-width
    font shown at twice its size: what ``render_mode="rgb_array"`` returns.

    >>> from diabolo.envs.gymnasium import table_image
    >>> table_image("seat 0: pile 3").shape
    (54, 192, 3)
    """
    from PIL import Image, ImageDraw, ImageFont

    lines = text.rstrip("\n").split("\n")
    font = ImageFont.load_default_imagefont()
    width, height = 6 * max(len(line) for line in lines) + 12, 11 * len(lines) + 16
    image = Image.new("RGB", (width, height), (24, 28, 36))
    ImageDraw.Draw(image).multiline_text((6, 8), "\n".join(lines), font=font, fill=(230, 230, 220), spacing=0)
    pixels = np.asarray(image, dtype=np.uint8)
    return np.ascontiguousarray(pixels.repeat(2, axis=0).repeat(2, axis=1))


def _drawn(env: Any, game: int, render_mode: str | None) -> str | npt.NDArray[np.uint8] | None:
    """Game ``game`` of the engine's vector env ``env`` as ``render_mode`` draws it: its
    text picture ("ansi"), that picture as an image ("rgb_array"), or None."""
    if render_mode is None:
        return None
    text: str = env.render(game)
    return text if render_mode == "ansi" else table_image(text)


class _Deals:
    """What the environments keep: the game of the options, the engine vector env's
    settings, and the seed of each deal (from the seed given to reset, else the next deal
    of the last seed)."""

    def __init__(self, game: str, render_mode: str | None, options: dict[str, Any], settings: dict[str, Any]) -> None:
        if render_mode is not None and render_mode not in RENDER_MODES:
            raise OptionError(f'render_mode must be None, "ansi" or "rgb_array", got {render_mode!r}')
        self.game = diabolo.load(game, **options)
        self.settings = settings
        self._seed = 0
        self._count = 0

    def observation_space(self) -> spaces.Space[Observation]:
        """The Box of one seat's observation tensor, within the game's bounds."""
        low, high = self.game.observation_tensor_bounds
        return spaces.Box(low, high, dtype=np.float32)

    def next(self, seed: int | None, np_random: np.random.Generator) -> tuple[int, int]:
        """The next deal's seed and number (from 0 after a seed is given); with no seed
        ever given, the first one is drawn from ``np_random``."""
        if seed is not None:
            self._seed, self._count = int(seed), 0
        elif self._count == 0 and self._seed == 0:
            self._seed = int(np_random.integers(2**63))
        number = self._count
        self._count += 1
        return diabolo.derive_seed(self._seed, number), number


class DiaboloEnv(gymnasium.Env[Observation, np.int64]):
    """One seat (``seat``, default 0; None: each seat in turn, one episode each) of
    ``game`` against ``opponents`` (a bot kind, a C++ bot, or one per seat), with the
    game's rule options; see the module's description and
    :func:`diabolo.envs.vector.vector_env` for ``reward``, ``illegal``, ``penalty``,
    ``idle_limit``, ``max_steps`` and Knizia's ``claims`` (the compact action space).

    >>> from diabolo.envs.gymnasium import DiaboloEnv
    >>> env = DiaboloEnv("schacht", players=3, seat=None)
    >>> [env.reset(seed=1)[1]["seat"]] + [env.reset()[1]["seat"] for _ in range(3)]
    [0, 1, 2, 0]
    """

    metadata = {"render_modes": RENDER_MODES, "render_fps": 4}

    def __init__(
        self,
        game: str,
        *,
        opponents: Any = "random",
        seat: int | None = 0,
        reward: str = "score",
        illegal: str = "penalise",
        penalty: float = -1.0,
        idle_limit: int = 8,
        max_steps: int | None = None,
        claims: int | None = None,
        render_mode: str | None = None,
        **options: Any,
    ) -> None:
        settings = {
            "opponents": opponents,
            "seat": seat,
            "reward": reward,
            "illegal": illegal,
            "penalty": penalty,
            "idle_limit": idle_limit,
            "max_steps": max_steps,
            "claims": claims,
        }
        self._deals = _Deals(game, render_mode, options, settings)
        self.game = self._deals.game
        self.render_mode = render_mode
        self._env = self.game.vector_env(1, seed=0, **settings)  # checks the settings
        self.observation_space = self._deals.observation_space()
        self.action_space = spaces.Discrete(self._env.num_actions)
        self._mask = np.zeros(self._env.num_actions, dtype=np.int8)
        self._learner = 0 if seat is None else seat

    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[Observation, dict[str, Any]]:
        """A new deal: from ``seed``, or the next one of the last seed given."""
        super().reset(seed=seed)
        deal, episode = self._deals.next(seed, self.np_random)
        # A new one-game env per episode counts its episodes from 0: the seat is given here.
        seat = self._deals.settings["seat"]
        self._learner = seat if seat is not None else episode % self.game.players
        self._env = self.game.vector_env(1, seed=deal, **{**self._deals.settings, "seat": self._learner})
        observations, masks = self._env.reset()
        return observations[0].copy(), self._info(masks[0], lost_race=False)

    def step(self, action: Any) -> tuple[Observation, SupportsFloat, bool, bool, dict[str, Any]]:
        """The seat's action, then the other seats' moves: ``(observation, reward,
        terminated, truncated, info)``; ``info`` has the ``action_mask``, the learner's
        ``seat`` and ``lost_race`` (real time: the move came after another that made it
        illegal), as reset's has."""
        if isinstance(action, (bool, np.bool_)) or not isinstance(action, (int, np.integer)):
            raise OptionError(f"an action is an integer id, got {action!r}")
        observations, masks, rewards, terminated, truncated = self._env.step(np.array([action], dtype=np.int64))
        info = self._info(masks[0], lost_race=bool(self._env.lost_races[0]))
        return observations[0].copy(), float(rewards[0]), bool(terminated[0]), bool(truncated[0]), info

    def _info(self, mask: npt.NDArray[np.bool_], *, lost_race: bool) -> dict[str, Any]:
        """The same keys after reset and after every step."""
        self._mask = mask.astype(np.int8)
        return {"action_mask": self._mask.copy(), "seat": self._learner, "lost_race": lost_race}

    def action_masks(self) -> npt.NDArray[np.int8]:
        """The legal actions now, 1 for each: ``info["action_mask"]``, for masked policies
        (sb3-contrib's MaskablePPO) and ``action_space.sample(mask=...)``."""
        return self._mask.copy()

    def render(self) -> str | npt.NDArray[np.uint8] | None:
        """With render_mode "ansi": a text picture of the table, as ``str(state)`` draws it;
        with "rgb_array": that picture as an image (:func:`table_image`)."""
        return _drawn(self._env, 0, self.render_mode)


class DiaboloVectorEnv(gymnasium.vector.VectorEnv[Observation, npt.NDArray[np.int64], npt.NDArray[Any]]):
    """``num_envs`` games of ``game`` as one Gymnasium ``VectorEnv``: the engine's vector env
    (``game.vector_env``) behind Gymnasium's interface, every game stepped in C++ on
    ``threads`` threads without the GIL, and no Python object per game. The settings are
    those of :class:`DiaboloEnv` (``seat=None``: each game's episode ``e`` puts the learner
    in seat ``e % players``). ``gymnasium.make_vec("diabolo/Schacht-v0", num_envs=n)``
    makes one.

    Autoreset is Gymnasium's ``NEXT_STEP``: the step after a game ended ignores its action
    and returns its next deal's first observation, reward 0 and no end. ``info`` has, per
    game, ``action_mask`` (int8, ``num_envs x num_actions``), ``seat`` and ``lost_race``,
    after ``reset`` and after every ``step``.

    >>> from diabolo.envs.gymnasium import DiaboloVectorEnv
    >>> envs = DiaboloVectorEnv("schacht", num_envs=8, players=3, opponents="heuristic")
    >>> observations, info = envs.reset(seed=1)
    >>> observations.shape, info["action_mask"].shape, envs.action_space
    ((8, 968), (8, 77), MultiDiscrete([77 77 77 77 77 77 77 77]))
    >>> actions = info["action_mask"].argmax(axis=1)
    >>> observations, rewards, terminated, truncated, info = envs.step(actions)
    """

    metadata = {"render_modes": RENDER_MODES, "autoreset_mode": gymnasium.vector.AutoresetMode.NEXT_STEP}

    def __init__(
        self,
        game: str,
        num_envs: int,
        *,
        opponents: Any = "random",
        seat: int | None = 0,
        threads: int | None = None,
        reward: str = "score",
        illegal: str = "penalise",
        penalty: float = -1.0,
        idle_limit: int = 8,
        max_steps: int | None = None,
        claims: int | None = None,
        render_mode: str | None = None,
        **options: Any,
    ) -> None:
        settings = {
            "opponents": opponents,
            "seat": seat,
            "threads": threads,
            "reward": reward,
            "illegal": illegal,
            "penalty": penalty,
            "idle_limit": idle_limit,
            "max_steps": max_steps,
            "claims": claims,
        }
        self._deals = _Deals(game, render_mode, options, settings)
        self.game = self._deals.game
        self.render_mode = render_mode
        self._env = self.game.vector_env(num_envs, seed=0, **settings)  # checks every setting
        self.num_envs = num_envs
        self.single_observation_space = self._deals.observation_space()
        self.single_action_space = spaces.Discrete(self._env.num_actions)
        self.observation_space = gymnasium.vector.utils.batch_space(self.single_observation_space, num_envs)
        self.action_space = gymnasium.vector.utils.batch_space(self.single_action_space, num_envs)
        self._masks = np.zeros((num_envs, self._env.num_actions), dtype=np.int8)

    def reset(
        self, *, seed: int | list[int] | None = None, options: dict[str, Any] | None = None
    ) -> tuple[Observation, dict[str, Any]]:
        """Every game anew: from ``seed``, or the next deals of the last seed given. Game
        ``i``'s episode ``e`` is dealt from ``derive_seed(derive_seed(seed, i), e)``, as the
        engine's vector env deals them."""
        if isinstance(seed, list):
            raise OptionError("a DiaboloVectorEnv is seeded with one seed for all its games, not a list")
        super().reset(seed=seed)
        deal, _ = self._deals.next(seed, self.np_random)
        self._env = self.game.vector_env(self.num_envs, seed=deal, **self._deals.settings)
        observations, masks = self._env.reset()
        return observations.copy(), self._info(masks, np.zeros(self.num_envs, dtype=bool))

    def step(
        self, actions: npt.ArrayLike
    ) -> tuple[Observation, npt.NDArray[np.float32], npt.NDArray[np.bool_], npt.NDArray[np.bool_], dict[str, Any]]:
        """One step of every game: ``(observations, rewards, terminated, truncated, info)``,
        arrays of ``num_envs`` rows."""
        observations, masks, rewards, terminated, truncated = self._env.step(np.asarray(actions, dtype=np.int64))
        info = self._info(masks, self._env.lost_races.copy())
        return observations.copy(), rewards.copy(), terminated.copy(), truncated.copy(), info

    def _info(self, masks: npt.NDArray[np.bool_], lost_races: npt.NDArray[np.bool_]) -> dict[str, Any]:
        """Per game, the same keys after reset and after every step (Gymnasium's vector
        info: each key with a ``_key`` array of the games it holds for, here all)."""
        every = np.ones(self.num_envs, dtype=bool)
        self._masks = masks.astype(np.int8)
        return {
            "action_mask": self._masks.copy(),
            "_action_mask": every,
            "seat": self._env.seats.copy(),
            "_seat": every,
            "lost_race": lost_races,
            "_lost_race": every.copy(),
        }

    def action_masks(self) -> npt.NDArray[np.int8]:
        """The legal actions of every game now, ``num_envs x num_actions`` int8:
        ``info["action_mask"]`` of the last reset or step."""
        return self._masks.copy()

    def render(self) -> tuple[str, ...] | tuple[npt.NDArray[np.uint8], ...] | None:
        """With render_mode "ansi": a text picture of each game's table; with "rgb_array":
        each as an image (:func:`table_image`)."""
        if self.render_mode is None:
            return None
        texts = tuple(self._env.render(game) for game in range(self.num_envs))
        return texts if self.render_mode == "ansi" else tuple(table_image(text) for text in texts)


def register() -> None:
    """Registers ``diabolo/Schacht-v0``, ``diabolo/Duvelen-v0`` and ``diabolo/Knizia-v0``
    with Gymnasium, for ``gymnasium.make`` (a :class:`DiaboloEnv`) and
    ``gymnasium.make_vec`` (a :class:`DiaboloVectorEnv`), options as keyword arguments. Importing this
    module does it; calling it again changes nothing.

    >>> import gymnasium
    >>> import diabolo.envs.gymnasium
    >>> gymnasium.make("diabolo/Duvelen-v0", players=2).action_space
    Discrete(204)
    """
    for name in diabolo.games():
        env_id = f"diabolo/{name.capitalize()}-v0"
        if env_id not in gymnasium.registry:
            gymnasium.register(
                env_id,
                entry_point="diabolo.envs.gymnasium:DiaboloEnv",
                vector_entry_point="diabolo.envs.gymnasium:DiaboloVectorEnv",
                kwargs={"game": name},
            )


register()
