//! The C API of the diabolo rules engine, declared for Rust: `cpp/include/diabolo/diabolo.h`
//! function for function, with its comments' ownership rules. Use the `diabolo` crate, the
//! safe API over these; this one is for code that needs the C calls themselves.
//!
//! Every handle returned through an out-pointer belongs to the caller (free it with its
//! `*_free`), every `*mut c_char` returned is freed with [`diabolo_string_free`], and a
//! failed call changes nothing and fills the [`diabolo_error`] it was given.
#![allow(non_camel_case_types)]

use std::os::raw::{c_char, c_int, c_void};

/// The C API version these declarations are for (`DIABOLO_API_VERSION`).
pub const DIABOLO_API_VERSION: c_int = 1;
/// The seat of a spectator, for views and events.
pub const DIABOLO_SPECTATOR: c_int = -1;
/// `current_player` when several seats may move at once (real time).
pub const DIABOLO_SIMULTANEOUS: c_int = -2;
/// `current_player` when the game is over.
pub const DIABOLO_TERMINAL: c_int = -4;
/// A bot's action when it waits, or its seat has nothing to do now.
pub const DIABOLO_WAIT: i32 = -1;

/// `diabolo_status`: what a call that can fail returns.
pub type diabolo_status = c_int;
pub const DIABOLO_OK: diabolo_status = 0;
pub const DIABOLO_ILLEGAL_MOVE: diabolo_status = 1;
pub const DIABOLO_STALE_MOVE: diabolo_status = 2;
pub const DIABOLO_BAD_NOTATION: diabolo_status = 3;
pub const DIABOLO_BAD_OPTION: diabolo_status = 4;
pub const DIABOLO_BAD_STATE: diabolo_status = 5;
pub const DIABOLO_BAD_PLAYER: diabolo_status = 6;
pub const DIABOLO_LIMIT: diabolo_status = 7;
pub const DIABOLO_ERROR: diabolo_status = 8;
pub const DIABOLO_BAD_ARGUMENT: diabolo_status = 9;

/// What went wrong: the status, the error's stable code, the rule's clause and the message,
/// each NUL-terminated.
#[repr(C)]
#[derive(Clone, Copy)]
pub struct diabolo_error {
    pub status: diabolo_status,
    pub code: [c_char; 48],
    pub clause: [c_char; 16],
    pub message: [c_char; 512],
}

impl Default for diabolo_error {
    fn default() -> Self {
        diabolo_error {
            status: DIABOLO_OK,
            code: [0; 48],
            clause: [0; 16],
            message: [0; 512],
        }
    }
}

/// An opaque game (its rules and options).
#[repr(C)]
pub struct diabolo_game {
    _private: [u8; 0],
}
/// An opaque state: a game in progress with its record.
#[repr(C)]
pub struct diabolo_state {
    _private: [u8; 0],
}
/// An opaque bot of one game.
#[repr(C)]
pub struct diabolo_bot {
    _private: [u8; 0],
}
/// An opaque position: a state's table without its record, for search.
#[repr(C)]
pub struct diabolo_position {
    _private: [u8; 0],
}

extern "C" {
    pub fn diabolo_version() -> *const c_char;
    pub fn diabolo_api_version() -> c_int;
    pub fn diabolo_games() -> *const c_char;
    pub fn diabolo_catalogue() -> *const c_char;

    pub fn diabolo_game_new(
        name: *const c_char,
        options_json: *const c_char,
        out: *mut *mut diabolo_game,
        error: *mut diabolo_error,
    ) -> diabolo_status;
    pub fn diabolo_game_new_with_lexicon(
        name: *const c_char,
        options_json: *const c_char,
        lexicon: *const c_void,
        lexicon_size: usize,
        out: *mut *mut diabolo_game,
        error: *mut diabolo_error,
    ) -> diabolo_status;
    pub fn diabolo_game_free(game: *mut diabolo_game);
    pub fn diabolo_game_players(game: *const diabolo_game) -> c_int;
    pub fn diabolo_game_num_actions(game: *const diabolo_game) -> c_int;
    pub fn diabolo_game_real_time(game: *const diabolo_game) -> c_int;
    pub fn diabolo_game_options(game: *const diabolo_game) -> *mut c_char;

    pub fn diabolo_state_new(
        game: *const diabolo_game,
        seed: u64,
        out: *mut *mut diabolo_state,
        error: *mut diabolo_error,
    ) -> diabolo_status;
    pub fn diabolo_state_deal(
        game: *const diabolo_game,
        seed: u64,
        deal_json: *const c_char,
        out: *mut *mut diabolo_state,
        error: *mut diabolo_error,
    ) -> diabolo_status;
    pub fn diabolo_state_from_json(
        game: *const diabolo_game,
        json: *const c_char,
        out: *mut *mut diabolo_state,
        error: *mut diabolo_error,
    ) -> diabolo_status;
    pub fn diabolo_state_clone(state: *const diabolo_state) -> *mut diabolo_state;
    pub fn diabolo_state_free(state: *mut diabolo_state);

    pub fn diabolo_state_current_player(state: *const diabolo_state) -> c_int;
    pub fn diabolo_state_pending_seats(state: *const diabolo_state) -> u32;
    pub fn diabolo_state_is_terminal(state: *const diabolo_state) -> c_int;
    pub fn diabolo_state_version(state: *const diabolo_state) -> u64;
    pub fn diabolo_state_legal_actions(
        state: *const diabolo_state,
        player: c_int,
        out: *mut i32,
        capacity: c_int,
    ) -> c_int;
    pub fn diabolo_state_legal_mask(
        state: *const diabolo_state,
        player: c_int,
        mask: *mut u8,
        capacity: c_int,
    ) -> c_int;
    pub fn diabolo_state_apply_action(
        state: *mut diabolo_state,
        player: c_int,
        action: c_int,
        error: *mut diabolo_error,
    ) -> diabolo_status;
    pub fn diabolo_state_apply_move(
        state: *mut diabolo_state,
        player: c_int,
        notation: *const c_char,
        error: *mut diabolo_error,
    ) -> diabolo_status;
    pub fn diabolo_state_scores(state: *const diabolo_state, out: *mut i32, capacity: c_int) -> c_int;
    pub fn diabolo_state_observation_tensor(
        state: *const diabolo_state,
        player: c_int,
        out: *mut f32,
        capacity: c_int,
    ) -> c_int;
    pub fn diabolo_state_observation(
        state: *const diabolo_state,
        player: c_int,
        error: *mut diabolo_error,
    ) -> *mut c_char;
    pub fn diabolo_state_events(state: *const diabolo_state, player: c_int, error: *mut diabolo_error) -> *mut c_char;
    pub fn diabolo_state_to_json(state: *const diabolo_state) -> *mut c_char;
    pub fn diabolo_game_action_notation(
        game: *const diabolo_game,
        action: c_int,
        error: *mut diabolo_error,
    ) -> *mut c_char;
    pub fn diabolo_state_resample(
        state: *const diabolo_state,
        player: c_int,
        seed: u64,
        out: *mut *mut diabolo_state,
        error: *mut diabolo_error,
    ) -> diabolo_status;

    pub fn diabolo_state_position(
        state: *const diabolo_state,
        out: *mut *mut diabolo_position,
        error: *mut diabolo_error,
    ) -> diabolo_status;
    pub fn diabolo_position_clone(position: *const diabolo_position) -> *mut diabolo_position;
    pub fn diabolo_position_copy(
        into: *mut diabolo_position,
        from: *const diabolo_position,
        error: *mut diabolo_error,
    ) -> diabolo_status;
    pub fn diabolo_position_resample(
        from: *const diabolo_position,
        player: c_int,
        seed: u64,
        into: *mut diabolo_position,
        error: *mut diabolo_error,
    ) -> diabolo_status;
    pub fn diabolo_position_free(position: *mut diabolo_position);
    pub fn diabolo_position_current_player(position: *const diabolo_position) -> c_int;
    pub fn diabolo_position_pending_seats(position: *const diabolo_position) -> u32;
    pub fn diabolo_position_is_terminal(position: *const diabolo_position) -> c_int;
    pub fn diabolo_position_legal_actions(
        position: *const diabolo_position,
        player: c_int,
        out: *mut i32,
        capacity: c_int,
    ) -> c_int;
    pub fn diabolo_position_apply_action(
        position: *mut diabolo_position,
        player: c_int,
        action: c_int,
        error: *mut diabolo_error,
    ) -> diabolo_status;
    pub fn diabolo_position_scores(position: *const diabolo_position, out: *mut i32, capacity: c_int) -> c_int;
    pub fn diabolo_position_observation_tensor(
        position: *const diabolo_position,
        player: c_int,
        out: *mut f32,
        capacity: c_int,
    ) -> c_int;

    pub fn diabolo_play_random(
        game: *const diabolo_game,
        games: c_int,
        seed: u64,
        threads: c_int,
        scores: *mut i32,
        moves: *mut i32,
        error: *mut diabolo_error,
    ) -> diabolo_status;

    pub fn diabolo_game_bots(game: *const diabolo_game) -> *const c_char;
    pub fn diabolo_bot_new(
        game: *const diabolo_game,
        kind: *const c_char,
        options_json: *const c_char,
        out: *mut *mut diabolo_bot,
        error: *mut diabolo_error,
    ) -> diabolo_status;
    pub fn diabolo_bot_free(bot: *mut diabolo_bot);
    pub fn diabolo_bot_choose(
        bot: *const diabolo_bot,
        state: *const diabolo_state,
        player: c_int,
        seed: u64,
        action: *mut i32,
        notation: *mut *mut c_char,
        delay_us: *mut i64,
        error: *mut diabolo_error,
    ) -> diabolo_status;

    pub fn diabolo_string_free(text: *mut c_char);
}
