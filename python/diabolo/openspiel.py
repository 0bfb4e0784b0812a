"""The three games as OpenSpiel games (``pip install "diabolo[openspiel]"``), so that
OpenSpiel's Python algorithms (MCTS, ISMCTS, ``evaluate_bots``, ``rl_environment``) run on
the engine. Importing this module registers ``diabolo_schacht``, ``diabolo_duvelen`` and
``diabolo_knizia`` with :mod:`pyspiel`; their parameters are the game's rule options
(those with a number, text or yes/no value) and the adapter's own:

- The deal is OpenSpiel's one chance node, at the start: outcome ``o`` (one of
  :data:`DEALS`, equally likely) deals the game from ``diabolo.derive_seed(seed, o)``, with
  ``seed`` a parameter (default 0). The seed fixes every later draw too, as a shuffled deck
  does, so after the deal the game has no more chance nodes; a search that clones states
  sees those draws, and ISMCTS with :func:`resampler` draws them anew with everything
  hidden.
- Schacht is sequential: the player to move acts; the secret doubler decisions (S5.3) are
  taken one by one in seat order, and no seat sees another's before the rules reveal it.
- Duvelen and Knizia are played in real time, so they are *simultaneous* games: at each
  step every seat chooses a move or the no-op (the last action id); the moves
  arrive in an order drawn from ``derive_seed(seed of the deal, step + 1)``, and a move
  that an earlier arrival of the same step made illegal lost the race and changes nothing.
  ``idle_limit`` (default 8) steps in a row in which nobody moves end the game, as does
  ``max_steps`` (default: the game's longest, ``(max_game_length + 1) * idle_limit``;
  10,000 for Knizia, whose calls have no bound): the returns are then the scores so far.
- Returns are the final scores, given at the end (OpenSpiel's *terminal* reward model, which
  its MCTS needs); for a reward at every move, use :mod:`diabolo.envs`.
- Observations: ``observation_tensor`` is the seat's tensor (only what the seat may know)
  and ``observation_string`` its observation as compact JSON. No information-state
  string or tensor is provided (the observation is not a perfect recall of the game), so
  ISMCTS runs with ``use_observation_string=True``.
- Serialisation: OpenSpiel saves a Python game's state by pickling its attributes; the
  engine's state pickles as its JSON (``state.to_json()``), the rules as the game's name
  and parameters.

>>> import pyspiel
>>> import diabolo.openspiel
>>> game = pyspiel.load_game("diabolo_schacht(players=4)")
>>> state = game.new_initial_state()
>>> state.is_chance_node()
True
>>> state.apply_action(12345)  # the deal
>>> state.current_player()
1
>>> while not state.is_terminal():
...     state.apply_action(state.legal_actions()[0])
>>> len(state.returns())
4
"""

from __future__ import annotations

import json
import os
import random
from collections.abc import Sequence
from typing import Any

import numpy as np
import numpy.typing as npt
import pyspiel

import diabolo
from diabolo.registry import Game, State, catalogue_entry, default_options, games, is_real_time

__all__ = ["DEALS", "NAMES", "DiaboloGame", "DiaboloState", "resampler"]

NAMES = {name: f"diabolo_{name}" for name in games()}
"""The OpenSpiel name of each game (of :func:`diabolo.games`)."""

DEALS = 1 << 16
"""The chance outcomes of the deal: deal ``o`` plays the engine's game of seed
``derive_seed(seed, o)``."""

_KNIZIA_MAX_STEPS = 10_000
"""Knizia's calls have no bound (a stale call may follow a stale call), so its OpenSpiel
game ends after this many steps unless ``max_steps`` says otherwise."""


def _rule_options(name: str) -> dict[str, int | str | bool]:
    """The game's rule options that OpenSpiel parameters can carry, with their defaults. A
    game's word list is a parameter too: a language code, or the path of a word-list file
    (one word a line)."""
    return {key: value for key, value in default_options(name).items() if isinstance(value, (bool, int, str))}


def _players(name: str) -> tuple[int, int]:
    """The seats some options of the game allow (Schacht 3-5, or 2-8 with
    ``strict_players=False``, S1.1): OpenSpiel's game type holds one range for every parameter."""
    entry = catalogue_entry(name)
    return entry.min_players_any, entry.max_players_any


def _game_type(name: str) -> pyspiel.GameType:
    real_time = is_real_time(name)
    adapter = {"seed": 0, "idle_limit": 8, "max_steps": 0} if real_time else {"seed": 0}
    return pyspiel.GameType(
        short_name=NAMES[name],
        long_name=catalogue_entry(name).title,
        dynamics=pyspiel.GameType.Dynamics.SIMULTANEOUS if real_time else pyspiel.GameType.Dynamics.SEQUENTIAL,
        chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
        information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
        utility=pyspiel.GameType.Utility.GENERAL_SUM,
        reward_model=pyspiel.GameType.RewardModel.TERMINAL,
        max_num_players=_players(name)[1],
        min_num_players=_players(name)[0],
        provides_information_state_string=False,
        provides_information_state_tensor=False,
        provides_observation_string=True,
        provides_observation_tensor=True,
        parameter_specification={**_rule_options(name), **adapter},
    )


def _engine_game(name: str, params: dict[str, Any]) -> Game:
    """The engine's game for OpenSpiel parameters (the rule options among them)."""
    options = {key: value for key, value in params.items() if key not in ("seed", "idle_limit", "max_steps")}
    lexicon = options.get("lexicon")
    if isinstance(lexicon, str) and os.path.isfile(lexicon):
        options["lexicon"] = diabolo.Lexicon.from_file(lexicon)
    return diabolo.load(name, **options)


class _Rules:
    """What a game's states share and never change: the engine's game and the adapter's
    options. Copying a state shares it (OpenSpiel clones states by deep copy)."""

    def __init__(self, name: str, params: dict[str, Any]) -> None:
        self.name, self.params = name, params
        self.engine = _engine_game(name, params)
        self.real_time = self.engine.real_time
        self.wait = self.engine.num_actions if self.real_time else -1
        self.idle_limit = int(params.get("idle_limit", 1))
        if self.idle_limit < 1:
            raise diabolo.OptionError(f"idle_limit must be a whole number >= 1, got {self.idle_limit}")
        self.max_steps = self._max_steps(int(params.get("max_steps", 0)))
        self.seed = int(params["seed"])

    def _max_steps(self, asked: int) -> int:
        """The most steps a game may take: ``asked`` if given (> 0), else the engine's
        longest game, with room for ``idle_limit - 1`` idle steps around each move in real
        time."""
        if asked < 0:
            raise diabolo.OptionError(f"max_steps must be a whole number >= 0 (0: the game's own bound), got {asked}")
        if asked:
            return asked
        moves = self.engine.max_game_length
        if not self.real_time:
            assert moves is not None  # every turn-based game has a bound
            return moves
        return _KNIZIA_MAX_STEPS if moves is None else (moves + 1) * self.idle_limit

    def __deepcopy__(self, memo: dict[int, Any]) -> _Rules:
        return self

    def __reduce__(self) -> tuple[type[_Rules], tuple[str, dict[str, Any]]]:
        return _Rules, (self.name, self.params)


class DiaboloGame(pyspiel.Game):  # type: ignore[misc]  # pyspiel has no types
    """A diabolo game as an OpenSpiel game; made by ``pyspiel.load_game("diabolo_<game>")``.
    ``engine`` is the diabolo game it plays.

    >>> import pyspiel, diabolo.openspiel
    >>> game = pyspiel.load_game("diabolo_duvelen", {"players": 3, "seed": 7})
    >>> game.num_players(), game.num_distinct_actions() == game.engine.num_actions + 1
    (3, True)
    """

    def __init__(self, name: str, params: dict[str, Any] | None = None) -> None:
        params = {**_TYPES[name].parameter_specification, **(params or {})}
        self.rules = _Rules(name, params)
        self.engine = self.rules.engine
        info = pyspiel.GameInfo(
            num_distinct_actions=self.engine.num_actions + (1 if self.rules.real_time else 0),
            max_chance_outcomes=DEALS,
            num_players=self.engine.players,
            min_utility=self.engine.min_utility,
            max_utility=self.engine.max_utility,
            utility_sum=None,
            max_game_length=self.rules.max_steps,
        )
        super().__init__(_TYPES[name], info, params)

    def new_initial_state(self) -> DiaboloState:
        """A state before the deal, a chance node."""
        return DiaboloState(self)

    def make_py_observer(
        self, iig_obs_type: pyspiel.IIGObservationType | None = None, params: dict[str, Any] | None = None
    ) -> _Observer:
        """The observer OpenSpiel asks for observation tensors and strings."""
        if params:
            raise diabolo.OptionError(f"the observer takes no parameters, got {params}")
        if iig_obs_type is not None and iig_obs_type.perfect_recall:
            raise diabolo.OptionError("no information state (perfect recall) is provided: use observations")
        return _Observer(self)


class DiaboloState(pyspiel.State):  # type: ignore[misc]
    """A state of a :class:`DiaboloGame`. After the deal, ``engine`` is the diabolo state
    (secrets included: for the code around the game, not for a policy); before it, None.

    >>> import pyspiel, diabolo.openspiel
    >>> state = pyspiel.load_game("diabolo_schacht").new_initial_state()
    >>> state.engine is None
    True
    >>> state.apply_action(7)
    >>> state.engine.phase
    'play'
    """

    def __init__(self, game: DiaboloGame) -> None:
        super().__init__(game)
        self._rules = game.rules
        self.engine: State | None = None
        self._seed = 0
        self._steps = 0
        self._idle = 0
        self._players = game.engine.players

    def _dealt(self) -> State:
        if self.engine is None:
            raise diabolo.OptionError("the game is not dealt yet: apply a chance outcome first")
        return self.engine

    def current_player(self) -> int:
        if self.engine is None:
            return int(pyspiel.PlayerId.CHANCE)
        if self.is_terminal():
            return int(pyspiel.PlayerId.TERMINAL)
        if self._rules.real_time:
            return int(pyspiel.PlayerId.SIMULTANEOUS)
        return int(self.engine.pending_seats[0])

    def chance_outcomes(self) -> list[tuple[int, float]]:
        """The deals, equally likely (none once dealt)."""
        if self.engine is not None:
            return []
        return [(deal, 1.0 / DEALS) for deal in range(DEALS)]

    def _legal_actions(self, player: int) -> list[int]:
        if self.is_terminal():
            return []
        actions = list(self._dealt().legal_actions(player))
        if self._rules.real_time:
            actions.append(self._rules.wait)
        return actions

    def _apply_action(self, action: int) -> None:
        if self.engine is None:
            if not 0 <= action < DEALS:
                raise diabolo.OptionError(f"a deal is 0..{DEALS - 1}, got {action}")
            self._seed = diabolo.derive_seed(self._rules.seed, action)
            self.engine = self._rules.engine.new_state(seed=self._seed)
            return
        self.engine.apply(action, player=self.current_player())
        self._steps += 1

    def _apply_actions(self, actions: Sequence[int]) -> None:
        """Every seat's action of one real-time step, in a seeded arrival order; a move
        that an earlier arrival made illegal lost the race. A move not legal when the step
        began raises the engine's error before any move applies."""
        engine = self._dealt()
        if len(actions) != self._players:
            raise diabolo.OptionError(f"a step takes one action per seat ({self._players}), got {len(actions)}")
        moves = {seat: int(action) for seat, action in enumerate(actions) if int(action) != self._rules.wait}
        for seat, action in moves.items():
            if action not in engine.legal_actions(seat):
                engine.clone().apply(action, player=seat)  # raises the IllegalMoveError naming the rule
        order = list(range(self._players))
        random.Random(diabolo.derive_seed(self._seed, self._steps + 1)).shuffle(order)
        version = engine.version
        for seat in order:
            if seat in moves and not engine.is_terminal and moves[seat] in engine.legal_actions(seat):
                engine.apply(moves[seat], player=seat)  # else an earlier arrival won the race
        self._steps += 1
        self._idle = 0 if engine.version != version else self._idle + 1

    def _action_to_string(self, player: int, action: int) -> str:
        if player == pyspiel.PlayerId.CHANCE:
            return f"deal {action}"
        if action == self._rules.wait:
            return "wait"
        return str(self._rules.engine.move(action))

    def is_terminal(self) -> bool:
        if self.engine is None:
            return False
        if self.engine.is_terminal or self._steps >= self._rules.max_steps:
            return True
        return self._rules.real_time and self._idle >= self._rules.idle_limit

    def returns(self) -> list[float]:
        if not self.is_terminal():
            return [0.0] * self._players
        return [float(score) for score in self._dealt().scores]

    def resample(self, player: int, seed: int) -> DiaboloState:
        """A copy in which everything ``player`` cannot know is drawn anew from ``seed``
        (the engine's ``resample``): what ISMCTS searches. Here the doubler decisions are
        taken in seat order (S5.3 has them secret and simultaneous), so ``player`` knows
        that the seats before it have decided, though not how: their decisions are drawn
        anew too, so that the same seat is to act."""
        engine = self._dealt().resample(player, seed)
        decided = set(engine.pending_seats) - set(self._dealt().pending_seats)
        draws = random.Random(seed)
        for seat in sorted(decided):
            engine.apply(draws.choice(engine.legal_actions(seat)), player=seat)
        state: DiaboloState = self.clone()
        state.engine = engine
        return state

    def __str__(self) -> str:
        return "(not dealt)" if self.engine is None else str(self.engine)


class _Observer:
    """OpenSpiel's observer of a :class:`DiaboloGame`: the seat's observation tensor and
    its observation as compact JSON."""

    def __init__(self, game: DiaboloGame) -> None:
        self.tensor: npt.NDArray[np.float32] = np.zeros(game.engine.observation_tensor_shape, np.float32)
        self.dict = {"observation": self.tensor}

    def set_from(self, state: DiaboloState, player: int) -> None:
        if state.engine is None:
            self.tensor.fill(0)
        else:
            self.tensor[:] = state.engine.observation_tensor(player)

    def string_from(self, state: DiaboloState, player: int) -> str:
        if state.engine is None:
            return ""
        return json.dumps(state.engine.observation(player), separators=(",", ":"), sort_keys=True)


def resampler(seed: int = 0) -> Any:
    """A resampler for OpenSpiel's ISMCTS (``bot.set_resampler(resampler(seed))``): each call
    draws the hidden cards and future draws anew with the engine's ``resample``, from a
    seeded sequence.

    >>> import numpy as np, pyspiel, diabolo.openspiel
    >>> from open_spiel.python.algorithms import ismcts, mcts
    >>> game = pyspiel.load_game("diabolo_schacht")
    >>> bot = ismcts.ISMCTSBot(game, mcts.RandomRolloutEvaluator(1, np.random.RandomState(1)),
    ...     uct_c=2.0, max_simulations=20, random_state=np.random.RandomState(1),
    ...     use_observation_string=True)
    >>> bot.set_resampler(diabolo.openspiel.resampler(seed=1))
    >>> state = game.new_initial_state()
    >>> state.apply_action(3)
    >>> bot.step(state) in state.legal_actions()
    True
    """
    draws = random.Random(seed)

    def resample(state: DiaboloState, player: int) -> DiaboloState:
        return state.resample(player, draws.getrandbits(63))

    return resample


_TYPES = {name: _game_type(name) for name in NAMES}
"""Each game's OpenSpiel type, made once."""


def _register() -> None:
    """Registers each game with a class of its own: OpenSpiel keeps what it registers until
    the process ends, and a class (unlike a function) is never freed then, without the
    interpreter."""
    for name in NAMES:

        def __init__(self: DiaboloGame, params: dict[str, Any] | None = None, name: str = name) -> None:
            DiaboloGame.__init__(self, name, params)

        game_class = type(f"Diabolo{name.capitalize()}Game", (DiaboloGame,), {"__init__": __init__})
        game_class.__module__ = __name__
        pyspiel.register_game(_TYPES[name], game_class)


_register()
