"""The games as environments for learning code: PettingZoo (:mod:`diabolo.envs.pettingzoo`,
``pip install "diabolo[pettingzoo]"``).

Every environment makes the same choices, documented in docs/ai.rst ("The environments"):

- **Agents** are ``player_0`` .. ``player_{n-1}``, one per seat.
- **Observations** are the seat's observation tensor (``state.observation_tensor``, only
  what the seat may know, float32 within ``game.observation_tensor_bounds``); the legal
  actions are ``info["action_mask"]``, int8, 1 for each (in the AEC environment, in the
  info of the agent to act). ``action_mask="observation"`` makes each observation a dict
  of ``observation`` and ``action_mask`` instead, as PettingZoo's classic games have it.
  The default is the form PettingZoo's checks take without a warning, and the Gymnasium
  environment's.
- **Actions** are the engine's action ids (``Discrete(game.num_actions)``); in the
  real-time games one more id, :data:`WAIT` ``= game.num_actions``, is the no-op: the seat
  lets time pass. It is always legal while the seat is in the game.
- **Rewards** (``reward=``): ``"score"`` (the default) gives each seat what every move
  changed in its score (``state.rewards()``), so that a seat's rewards add up to its final
  score; ``"final"`` gives the final scores at the end and 0 before.
- **Illegal actions** (``illegal=``): ``"penalise"`` (the default) changes nothing,
  gives the seat ``illegal_penalty`` (default -1) and reports the rule in its info
  (``"illegal"``); the seat acts again. So an action sampled without the mask (as
  PettingZoo's ``parallel_seed_test`` does) is harmless. ``"raise"`` raises the engine's
  :class:`~diabolo.IllegalMoveError` instead, naming the rule, and changes nothing: a
  masked policy never meets it, and a bug in one shows at once.
- **Turns**: in Schacht the player to move acts; during the secret doubler decisions
  (S5.3) the seats still to decide act one by one in seat order, and none sees another's
  decision before the rules reveal it.
- **Real time** (Duvelen, Knizia): the AEC environment asks the seats in turn, in seat
  order, each time the next seat after the last one asked that has a legal move, and
  applies its move at once: it arrives first. The parallel environment asks every seat at
  once; the moves of one step arrive in an order drawn afresh each step from the
  environment's seeded generator, so that no seat always comes first, and a move that an
  earlier arrival of the same step made illegal lost the race: nothing changes and the
  seat's info says ``"lost_race"``, without penalty.
- **Ends**: a finished game terminates every agent. A real-time table where every seat
  waits ``idle_limit`` times in a row (default 8 asks of each seat) is truncated, as is any
  game after ``max_steps`` steps (default: none).
- **Knizia's claims** (``claims=k``): an action per word of the word list by default; with
  ``claims=k`` a compact action space instead: the ids below the first claim's (reveal,
  pass, take@i), then ``k`` entries for the legal claims ranked, the longest words first
  (``KniziaState.compact_view``); an entry applies the claim the seat's last observation
  showed.
- **Seeding**: ``reset(seed=s)`` deals the game from ``s`` and seeds the arrival order, so
  the same seed and actions give the same game.
"""

from __future__ import annotations
