//! The diabolo rules engine from Rust: Diabolo by Schacht and by Knizia, and Duvelen, with
//! the same games, views, events and bots as in Python, C, C#, Cython and JavaScript (the
//! golden transcripts in `tests/` are replayed by each).
//!
//! A [`Game`] is a game's rules and options; [`Game::new_state`] deals a [`State`], which a
//! frontend keeps and plays on; a [`Position`] is a state's table alone, what search code
//! copies; a [`Bot`] chooses moves. Views, events and states are JSON text, as the C API
//! gives them (parse them with the JSON crate you use). Every call that can fail returns a
//! [`Result`] whose [`Error`] carries the engine's status, its stable code and the rule's
//! clause (`S3.2`), and a failed call changes nothing.
//!
//! ```
//! use diabolo::{Game, Seat, Viewer};
//!
//! let game = Game::new("schacht", Some(r#"{"players": 3}"#))?;
//! let mut state = game.new_state(7)?;
//! let seat = state.current_seat().expect("Schacht is played in turns");
//! let first = state.legal_actions(seat)?.next().expect("a move");
//! println!("{} plays {}", seat, game.action_notation(first)?);
//! state.apply_action(seat, first)?;
//! assert_eq!(state.version(), 1);
//! let view: String = state.observation(Viewer::Seat(seat))?; // JSON
//! assert!(view.starts_with('{'));
//! # let _: Seat = seat;
//! # Ok::<(), diabolo::Error>(())
//! ```
use std::ffi::{CStr, CString};
use std::fmt;
use std::os::raw::{c_char, c_int};
use std::ptr;

use diabolo_sys as sys;

/// A seat at the table, from 0.
pub type Seat = usize;

/// Who looks at a view or at events: a seat, or a spectator (the public view).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Viewer {
    Seat(Seat),
    Spectator,
}

impl Viewer {
    fn raw(self) -> c_int {
        match self {
            Viewer::Seat(seat) => seat_raw(seat),
            Viewer::Spectator => sys::DIABOLO_SPECTATOR,
        }
    }
}

/// Whose move it is: one seat (games in turns), several at once (real time: see
/// [`State::pending_seats`]), or no one (the game is over).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Turn {
    Seat(Seat),
    Simultaneous,
    Terminal,
}

impl Turn {
    /// The seat to move, if one seat is.
    pub fn seat(self) -> Option<Seat> {
        match self {
            Turn::Seat(seat) => Some(seat),
            _ => None,
        }
    }

    fn from_raw(raw: c_int) -> Turn {
        match raw {
            sys::DIABOLO_TERMINAL => Turn::Terminal,
            raw if raw >= 0 => Turn::Seat(raw as Seat),
            _ => Turn::Simultaneous,
        }
    }
}

/// The kind of an [`Error`]: the C API's `diabolo_status`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Status {
    /// The rules forbid the move now ([`Error::clause`] names the rule).
    IllegalMove,
    /// The move was legal on an older version of the table: it lost a race.
    StaleMove,
    /// Not a move of the game.
    BadNotation,
    /// An unknown game, bot, option or argument; options that are not JSON.
    BadOption,
    /// State JSON, a deal or a word list that is not one of the game.
    BadState,
    /// No such seat.
    BadPlayer,
    /// Work past one of the engine's documented limits.
    Limit,
    /// An argument the C API cannot take (text with a NUL byte).
    BadArgument,
    /// Anything else (out of memory).
    Other,
}

impl Status {
    fn from_raw(raw: sys::diabolo_status) -> Status {
        match raw {
            sys::DIABOLO_ILLEGAL_MOVE => Status::IllegalMove,
            sys::DIABOLO_STALE_MOVE => Status::StaleMove,
            sys::DIABOLO_BAD_NOTATION => Status::BadNotation,
            sys::DIABOLO_BAD_OPTION => Status::BadOption,
            sys::DIABOLO_BAD_STATE => Status::BadState,
            sys::DIABOLO_BAD_PLAYER => Status::BadPlayer,
            sys::DIABOLO_LIMIT => Status::Limit,
            sys::DIABOLO_BAD_ARGUMENT => Status::BadArgument,
            _ => Status::Other,
        }
    }
}

/// Why a call failed: the status, the stable code (`"side_full"`), the rule's clause
/// (`"S3.2"`, empty if none) and the English message. Nothing changed.
///
/// ```
/// let game = diabolo::Game::new("schacht", None)?;
/// let mut state = game.new_state(1)?;
/// let error = state.apply_move(0, "not a move").unwrap_err();
/// assert_eq!(error.status, diabolo::Status::BadNotation);
/// assert_eq!(state.version(), 0);
/// # Ok::<(), diabolo::Error>(())
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Error {
    pub status: Status,
    pub code: String,
    pub clause: String,
    pub message: String,
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.clause.is_empty() {
            write!(f, "{} ({})", self.message, self.code)
        } else {
            write!(f, "{} ({}, {})", self.message, self.code, self.clause)
        }
    }
}

impl std::error::Error for Error {}

/// The result of every call that can fail.
pub type Result<T> = std::result::Result<T, Error>;

fn text_of(chars: &[c_char]) -> String {
    let bytes: Vec<u8> = chars.iter().take_while(|&&c| c != 0).map(|&c| c as u8).collect();
    String::from_utf8_lossy(&bytes).into_owned()
}

impl Error {
    fn from_raw(status: sys::diabolo_status, error: &sys::diabolo_error) -> Error {
        Error {
            status: Status::from_raw(status),
            code: text_of(&error.code),
            clause: text_of(&error.clause),
            message: text_of(&error.message),
        }
    }

    fn argument(message: String) -> Error {
        Error {
            status: Status::BadArgument,
            code: "bad_argument".into(),
            clause: String::new(),
            message,
        }
    }
}

/// Runs a C call that fills a `diabolo_error` and returns a status.
fn check(call: impl FnOnce(*mut sys::diabolo_error) -> sys::diabolo_status) -> Result<()> {
    let mut error = sys::diabolo_error::default();
    match call(&mut error) {
        sys::DIABOLO_OK => Ok(()),
        status => Err(Error::from_raw(status, &error)),
    }
}

/// Text as the C API takes it; a NUL byte inside is an error, not a cut.
fn c_text(what: &str, text: &str) -> Result<CString> {
    CString::new(text).map_err(|_| Error::argument(format!("{} holds a NUL byte", what)))
}

fn c_optional(what: &str, text: Option<&str>) -> Result<Option<CString>> {
    text.map(|t| c_text(what, t)).transpose()
}

fn pointer_of(text: &Option<CString>) -> *const c_char {
    text.as_ref().map_or(ptr::null(), |t| t.as_ptr())
}

/// Takes a string the C API returned (freeing it); NULL is the error it filled.
fn owned_text(text: *mut c_char, error: &sys::diabolo_error) -> Result<String> {
    if text.is_null() {
        return Err(Error::from_raw(
            if error.status == sys::DIABOLO_OK {
                sys::DIABOLO_ERROR
            } else {
                error.status
            },
            error,
        ));
    }
    // SAFETY: a non-NULL string from the C API is NUL-terminated and ours to free.
    let owned = unsafe { CStr::from_ptr(text) }.to_string_lossy().into_owned();
    unsafe { sys::diabolo_string_free(text) };
    Ok(owned)
}

fn static_text(text: *const c_char) -> &'static str {
    // SAFETY: the C API's static strings live as long as the library and are UTF-8.
    unsafe { CStr::from_ptr(text) }.to_str().unwrap_or("")
}

/// Seats beyond what a C int holds are no seats: they become one the engine refuses.
fn seat_raw(seat: Seat) -> c_int {
    c_int::try_from(seat).unwrap_or(c_int::MAX)
}

fn seats_of(bits: u32) -> Vec<Seat> {
    (0..32).filter(|seat| bits >> seat & 1 == 1).collect()
}

/// The library's version (`"0.1.0"`).
///
/// ```
/// assert_eq!(diabolo::version(), env!("CARGO_PKG_VERSION"));
/// ```
pub fn version() -> &'static str {
    // SAFETY: returns a static string.
    static_text(unsafe { sys::diabolo_version() })
}

/// The ids of the listed games, sorted.
///
/// ```
/// assert_eq!(diabolo::games(), ["duvelen", "knizia", "schacht"]);
/// ```
pub fn games() -> Vec<&'static str> {
    // SAFETY: returns a static string.
    static_text(unsafe { sys::diabolo_games() })
        .split(',')
        .filter(|name| !name.is_empty())
        .collect()
}

/// The catalogue of games as JSON text: each game's name, title, seats, bots and more
/// (see `diabolo_catalogue` in the C API).
///
/// ```
/// assert!(diabolo::catalogue().contains(r#""name":"schacht""#));
/// ```
pub fn catalogue() -> &'static str {
    // SAFETY: returns a static string.
    static_text(unsafe { sys::diabolo_catalogue() })
}

/// A game: its rules and options. States and bots made from it keep what they need of it,
/// so it may be dropped before them.
pub struct Game {
    raw: *mut sys::diabolo_game,
}

// SAFETY: a game is never changed after it is made; the C API allows use from any thread.
unsafe impl Send for Game {}
unsafe impl Sync for Game {}

impl Drop for Game {
    fn drop(&mut self) {
        // SAFETY: raw came from diabolo_game_new and is freed once.
        unsafe { sys::diabolo_game_free(self.raw) }
    }
}

impl fmt::Debug for Game {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Game").field("options", &self.options()).finish()
    }
}

impl Game {
    /// A game by id with its options as a JSON object (`None` for the defaults). A Knizia
    /// game takes its `lexicon` (a list of words) and `deck` there, or see [`Game::with_lexicon`].
    ///
    /// ```
    /// let game = diabolo::Game::new("duvelen", Some(r#"{"players": 2}"#))?;
    /// assert_eq!(game.players(), 2);
    /// assert!(game.real_time());
    /// let error = diabolo::Game::new("chess", None).unwrap_err();
    /// assert_eq!(error.status, diabolo::Status::BadOption);
    /// # Ok::<(), diabolo::Error>(())
    /// ```
    pub fn new(name: &str, options_json: Option<&str>) -> Result<Game> {
        let name = c_text("the game's name", name)?;
        let options = c_optional("the options", options_json)?;
        let mut raw = ptr::null_mut();
        check(|error| unsafe { sys::diabolo_game_new(name.as_ptr(), pointer_of(&options), &mut raw, error) })?;
        Ok(Game { raw })
    }

    /// A Knizia game with its word list in the binary form of Python's
    /// `diabolo.Lexicon.to_bytes()` (checked completely): what a program ships instead of the
    /// words. [`Status::BadState`] if the bytes are not such a list.
    pub fn with_lexicon(name: &str, options_json: Option<&str>, lexicon: &[u8]) -> Result<Game> {
        let name = c_text("the game's name", name)?;
        let options = c_optional("the options", options_json)?;
        let mut raw = ptr::null_mut();
        check(|error| unsafe {
            sys::diabolo_game_new_with_lexicon(
                name.as_ptr(),
                pointer_of(&options),
                lexicon.as_ptr().cast(),
                lexicon.len(),
                &mut raw,
                error,
            )
        })?;
        Ok(Game { raw })
    }

    /// The number of seats.
    pub fn players(&self) -> usize {
        // SAFETY: a live game.
        unsafe { sys::diabolo_game_players(self.raw) }.max(0) as usize
    }

    /// The number of action ids: every legal action is below it.
    pub fn num_actions(&self) -> usize {
        // SAFETY: a live game.
        unsafe { sys::diabolo_game_num_actions(self.raw) }.max(0) as usize
    }

    /// Whether the game is played in real time (Duvelen D3, Knizia K3.2): every seat with a
    /// legal move may move, and [`State::turn`] is never a seat.
    pub fn real_time(&self) -> bool {
        // SAFETY: a live game.
        unsafe { sys::diabolo_game_real_time(self.raw) == 1 }
    }

    /// Every option with its value, as a JSON object.
    ///
    /// ```
    /// let game = diabolo::Game::new("schacht", Some(r#"{"players": 5}"#))?;
    /// assert!(game.options().contains(r#""players":5"#));
    /// # Ok::<(), diabolo::Error>(())
    /// ```
    pub fn options(&self) -> String {
        let error = sys::diabolo_error::default();
        // SAFETY: a live game.
        owned_text(unsafe { sys::diabolo_game_options(self.raw) }, &error).unwrap_or_default()
    }

    /// The kinds of bots of this game (`["heuristic", "ismcts", ...]`).
    pub fn bots(&self) -> Vec<&'static str> {
        // SAFETY: a live game; the kinds are a static string.
        static_text(unsafe { sys::diabolo_game_bots(self.raw) })
            .split(',')
            .filter(|k| !k.is_empty())
            .collect()
    }

    /// The notation of an action id (`"G5<"`), for logs and menus.
    pub fn action_notation(&self, action: i32) -> Result<String> {
        let mut error = sys::diabolo_error::default();
        // SAFETY: a live game.
        let text = unsafe { sys::diabolo_game_action_notation(self.raw, action, &mut error) };
        owned_text(text, &error)
    }

    /// A new game shuffled from `seed`: the same seed gives the same game in every language.
    pub fn new_state(&self, seed: u64) -> Result<State> {
        let mut raw = ptr::null_mut();
        check(|error| unsafe { sys::diabolo_state_new(self.raw, seed, &mut raw, error) })?;
        Ok(State { raw })
    }

    /// A new game dealt from a given deal, a JSON object in the game's deal format (S2.4,
    /// D2.5, K10.7); what it leaves out is shuffled from `seed`.
    pub fn deal(&self, seed: u64, deal_json: &str) -> Result<State> {
        let deal = c_text("the deal", deal_json)?;
        let mut raw = ptr::null_mut();
        check(|error| unsafe { sys::diabolo_state_deal(self.raw, seed, deal.as_ptr(), &mut raw, error) })?;
        Ok(State { raw })
    }

    /// The state a JSON text of [`State::to_json`] holds.
    pub fn state_from_json(&self, json: &str) -> Result<State> {
        let json = c_text("the state's JSON", json)?;
        let mut raw = ptr::null_mut();
        check(|error| unsafe { sys::diabolo_state_from_json(self.raw, json.as_ptr(), &mut raw, error) })?;
        Ok(State { raw })
    }

    /// `games` whole games of uniformly random legal moves on `threads` threads: each game's
    /// final scores (a row per game) and its number of moves. The same seed gives the same
    /// games on any thread count.
    ///
    /// ```
    /// let game = diabolo::Game::new("schacht", Some(r#"{"players": 3}"#))?;
    /// let (scores, moves) = game.play_random(4, 1, 2)?;
    /// assert_eq!((scores.len(), scores[0].len()), (4, 3));
    /// assert_eq!(game.play_random(4, 1, 1)?.1, moves);
    /// # Ok::<(), diabolo::Error>(())
    /// ```
    pub fn play_random(&self, games: usize, seed: u64, threads: usize) -> Result<(Vec<Vec<i32>>, Vec<i32>)> {
        let count = c_int::try_from(games).map_err(|_| Error::argument(format!("{} games are too many", games)))?;
        let players = self.players();
        let mut scores = vec![0i32; games * players];
        let mut moves = vec![0i32; games];
        let threads = c_int::try_from(threads).unwrap_or(c_int::MAX);
        check(|error| unsafe {
            sys::diabolo_play_random(
                self.raw,
                count,
                seed,
                threads,
                scores.as_mut_ptr(),
                moves.as_mut_ptr(),
                error,
            )
        })?;
        Ok((scores.chunks(players.max(1)).map(<[i32]>::to_vec).collect(), moves))
    }
}

/// The legal action ids of a seat, ascending.
pub type LegalActions = std::vec::IntoIter<i32>;

/// The error of a call that answered -1: the seat does not exist.
fn no_seat() -> Error {
    Error {
        status: Status::BadPlayer,
        code: "bad_player".into(),
        clause: String::new(),
        message: "no such seat".into(),
    }
}

/// The legal ids `fill(out, capacity)` writes (a diabolo_*_legal_actions call), asked for
/// their count first.
fn legal_ids(fill: impl Fn(*mut i32, c_int) -> c_int) -> Result<LegalActions> {
    let count = fill(ptr::null_mut(), 0);
    if count < 0 {
        return Err(no_seat());
    }
    let mut ids = vec![0i32; count as usize];
    fill(ids.as_mut_ptr(), count);
    Ok(ids.into_iter())
}

/// The scores `fill(out, capacity)` writes (a diabolo_*_scores call): 32 is more than any
/// game's seats.
fn scores_of(fill: impl Fn(*mut i32, c_int) -> c_int) -> Vec<i32> {
    let mut scores = vec![0i32; 32];
    let count = fill(scores.as_mut_ptr(), 32);
    scores.truncate(count.clamp(0, 32) as usize);
    scores
}

/// A game in progress with its record: what a frontend keeps. A state is a value: clone it
/// to branch; it may be read from several threads at once.
pub struct State {
    raw: *mut sys::diabolo_state,
}

// SAFETY: the C API's states are values; changes need `&mut`.
unsafe impl Send for State {}
unsafe impl Sync for State {}

impl Drop for State {
    fn drop(&mut self) {
        // SAFETY: raw is ours and freed once.
        unsafe { sys::diabolo_state_free(self.raw) }
    }
}

impl Clone for State {
    /// An independent copy.
    fn clone(&self) -> State {
        // SAFETY: a live state; NULL only when out of memory.
        let raw = unsafe { sys::diabolo_state_clone(self.raw) };
        assert!(!raw.is_null(), "out of memory copying a state");
        State { raw }
    }
}

impl fmt::Debug for State {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("State")
            .field("version", &self.version())
            .field("turn", &self.turn())
            .finish()
    }
}

impl State {
    /// Whose move it is.
    pub fn turn(&self) -> Turn {
        // SAFETY: a live state.
        Turn::from_raw(unsafe { sys::diabolo_state_current_player(self.raw) })
    }

    /// The seat to move in a game played in turns, `None` otherwise.
    pub fn current_seat(&self) -> Option<Seat> {
        self.turn().seat()
    }

    /// The seats that may or must act now, ascending.
    pub fn pending_seats(&self) -> Vec<Seat> {
        // SAFETY: a live state.
        seats_of(unsafe { sys::diabolo_state_pending_seats(self.raw) })
    }

    /// Whether the game is over.
    pub fn is_terminal(&self) -> bool {
        // SAFETY: a live state.
        unsafe { sys::diabolo_state_is_terminal(self.raw) == 1 }
    }

    /// The number of moves applied.
    pub fn version(&self) -> u64 {
        // SAFETY: a live state.
        unsafe { sys::diabolo_state_version(self.raw) }
    }

    /// The legal action ids of `seat`, ascending ([`Status::BadPlayer`] for no such seat).
    pub fn legal_actions(&self, seat: Seat) -> Result<LegalActions> {
        // SAFETY: a live state; the buffer holds `capacity` ids.
        legal_ids(|out, capacity| unsafe { sys::diabolo_state_legal_actions(self.raw, seat_raw(seat), out, capacity) })
    }

    /// `mask[id]` is true for each legal action id of `seat`, for every id of the game.
    pub fn legal_mask(&self, seat: Seat, num_actions: usize) -> Result<Vec<bool>> {
        let mut mask = vec![0u8; num_actions];
        let capacity = c_int::try_from(num_actions).unwrap_or(c_int::MAX);
        // SAFETY: a live state; the buffer holds `capacity` bytes.
        let count = unsafe { sys::diabolo_state_legal_mask(self.raw, seat_raw(seat), mask.as_mut_ptr(), capacity) };
        if count < 0 {
            return Err(no_seat());
        }
        Ok(mask.into_iter().map(|legal| legal == 1).collect())
    }

    /// Plays an action id for `seat`. An error changes nothing.
    pub fn apply_action(&mut self, seat: Seat, action: i32) -> Result<()> {
        check(|error| unsafe { sys::diabolo_state_apply_action(self.raw, seat_raw(seat), action, error) })
    }

    /// Plays a move in the game's notation (`"G5<"`, `"R2:7h>3"`, `"LAGER"`) for `seat`.
    /// An error changes nothing.
    ///
    /// ```
    /// let game = diabolo::Game::new("schacht", Some(r#"{"players": 3}"#))?;
    /// let mut state = game.new_state(5)?;
    /// state.apply_move(1, "R3<")?;
    /// assert_eq!(state.current_seat(), Some(2));
    /// let error = state.apply_move(0, "G4<").unwrap_err();
    /// assert_eq!((error.status, error.clause.as_str()), (diabolo::Status::IllegalMove, "S2.2"));
    /// # Ok::<(), diabolo::Error>(())
    /// ```
    pub fn apply_move(&mut self, seat: Seat, notation: &str) -> Result<()> {
        let notation = c_text("the move", notation)?;
        check(|error| unsafe { sys::diabolo_state_apply_move(self.raw, seat_raw(seat), notation.as_ptr(), error) })
    }

    /// Every seat's score so far.
    pub fn scores(&self) -> Vec<i32> {
        // SAFETY: a live state; the buffer holds `capacity` scores.
        scores_of(|out, capacity| unsafe { sys::diabolo_state_scores(self.raw, out, capacity) })
    }

    /// The view of `viewer` as JSON text: what that seat may know, or the public view.
    pub fn observation(&self, viewer: Viewer) -> Result<String> {
        let mut error = sys::diabolo_error::default();
        // SAFETY: a live state.
        let text = unsafe { sys::diabolo_state_observation(self.raw, viewer.raw(), &mut error) };
        owned_text(text, &error)
    }

    /// The last move's events as `viewer` sees them, as a JSON list.
    pub fn events(&self, viewer: Viewer) -> Result<String> {
        let mut error = sys::diabolo_error::default();
        // SAFETY: a live state.
        let text = unsafe { sys::diabolo_state_events(self.raw, viewer.raw(), &mut error) };
        owned_text(text, &error)
    }

    /// The observation tensor of `seat` (Python's `state.observation_tensor(seat)`).
    pub fn observation_tensor(&self, seat: Seat) -> Result<Vec<f32>> {
        tensor(|out, capacity| unsafe {
            sys::diabolo_state_observation_tensor(self.raw, seat_raw(seat), out, capacity)
        })
    }

    /// The whole state as JSON text ([`Game::state_from_json`] reads it back).
    pub fn to_json(&self) -> String {
        let error = sys::diabolo_error::default();
        // SAFETY: a live state.
        owned_text(unsafe { sys::diabolo_state_to_json(self.raw) }, &error).unwrap_or_default()
    }

    /// Determinisation: what `seat` cannot see, dealt anew from `seed`.
    pub fn resample(&self, seat: Seat, seed: u64) -> Result<State> {
        let mut raw = ptr::null_mut();
        check(|error| unsafe { sys::diabolo_state_resample(self.raw, seat_raw(seat), seed, &mut raw, error) })?;
        Ok(State { raw })
    }

    /// The state's table without its record, for search.
    pub fn position(&self) -> Result<Position> {
        let mut raw = ptr::null_mut();
        check(|error| unsafe { sys::diabolo_state_position(self.raw, &mut raw, error) })?;
        Ok(Position { raw })
    }
}

fn tensor(fill: impl Fn(*mut f32, c_int) -> c_int) -> Result<Vec<f32>> {
    let size = fill(ptr::null_mut(), 0);
    if size < 0 {
        return Err(no_seat());
    }
    let mut values = vec![0f32; size as usize];
    fill(values.as_mut_ptr(), size);
    Ok(values)
}

/// A state's table alone, without its record: copying one allocates nothing and a move on
/// one is checked but recorded nowhere, which is what search code wants.
///
/// ```
/// let game = diabolo::Game::new("schacht", Some(r#"{"players": 3}"#))?;
/// let state = game.new_state(3)?;
/// let mut playout = state.position()?;
/// let mut moves = 0;
/// while let Some(&seat) = playout.pending_seats().first() {
///     let action = playout.legal_actions(seat)?.next().expect("a legal move");
///     playout.apply_action(seat, action)?;
///     moves += 1;
/// }
/// assert!(playout.is_terminal() && moves > 10);
/// assert_eq!(state.version(), 0);
/// # Ok::<(), diabolo::Error>(())
/// ```
pub struct Position {
    raw: *mut sys::diabolo_position,
}

// SAFETY: positions are values, as states are.
unsafe impl Send for Position {}
unsafe impl Sync for Position {}

impl Drop for Position {
    fn drop(&mut self) {
        // SAFETY: raw is ours and freed once.
        unsafe { sys::diabolo_position_free(self.raw) }
    }
}

impl Clone for Position {
    fn clone(&self) -> Position {
        // SAFETY: a live position; NULL only when out of memory.
        let raw = unsafe { sys::diabolo_position_clone(self.raw) };
        assert!(!raw.is_null(), "out of memory copying a position");
        Position { raw }
    }

    /// Overwrites this position with `from` without allocating (both of one game).
    fn clone_from(&mut self, from: &Position) {
        self.copy_from(from).expect("a position of another game");
    }
}

impl Position {
    /// Overwrites this position with `from`, reusing its memory; [`Status::BadOption`] if
    /// `from` is a position of another game.
    pub fn copy_from(&mut self, from: &Position) -> Result<()> {
        check(|error| unsafe { sys::diabolo_position_copy(self.raw, from.raw, error) })
    }

    /// Overwrites this position with the determinisation of `from` for `seat`: what that
    /// seat cannot see dealt anew from `seed`.
    pub fn resample_from(&mut self, from: &Position, seat: Seat, seed: u64) -> Result<()> {
        check(|error| unsafe { sys::diabolo_position_resample(from.raw, seat_raw(seat), seed, self.raw, error) })
    }

    /// Whose move it is.
    pub fn turn(&self) -> Turn {
        // SAFETY: a live position.
        Turn::from_raw(unsafe { sys::diabolo_position_current_player(self.raw) })
    }

    /// The seat to move in a game played in turns, `None` otherwise.
    pub fn current_seat(&self) -> Option<Seat> {
        self.turn().seat()
    }

    /// The seats that may or must act now, ascending.
    pub fn pending_seats(&self) -> Vec<Seat> {
        // SAFETY: a live position.
        seats_of(unsafe { sys::diabolo_position_pending_seats(self.raw) })
    }

    /// Whether the game is over.
    pub fn is_terminal(&self) -> bool {
        // SAFETY: a live position.
        unsafe { sys::diabolo_position_is_terminal(self.raw) == 1 }
    }

    /// The legal action ids of `seat`, ascending.
    pub fn legal_actions(&self, seat: Seat) -> Result<LegalActions> {
        // SAFETY: a live position; the buffer holds `capacity` ids.
        legal_ids(|out, capacity| unsafe {
            sys::diabolo_position_legal_actions(self.raw, seat_raw(seat), out, capacity)
        })
    }

    /// Plays an action id for `seat`, checked as [`State::apply_action`]; nothing is recorded.
    pub fn apply_action(&mut self, seat: Seat, action: i32) -> Result<()> {
        check(|error| unsafe { sys::diabolo_position_apply_action(self.raw, seat_raw(seat), action, error) })
    }

    /// Every seat's score so far.
    pub fn scores(&self) -> Vec<i32> {
        // SAFETY: a live position; the buffer holds `capacity` scores.
        scores_of(|out, capacity| unsafe { sys::diabolo_position_scores(self.raw, out, capacity) })
    }

    /// The observation tensor of `seat`, as the state's.
    pub fn observation_tensor(&self, seat: Seat) -> Result<Vec<f32>> {
        tensor(|out, capacity| unsafe {
            sys::diabolo_position_observation_tensor(self.raw, seat_raw(seat), out, capacity)
        })
    }
}

/// A bot's answer: the action it plays now (`None`: it waits, or its seat has nothing to
/// do), the move's notation and, in real time, the microseconds after which it would act.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Choice {
    pub action: Option<i32>,
    pub notation: Option<String>,
    pub delay_us: i64,
}

/// A bot of one game, by kind (see [`Game::bots`]) with its options as JSON.
///
/// ```
/// let game = diabolo::Game::new("schacht", Some(r#"{"players": 3}"#))?;
/// let bot = diabolo::Bot::new(&game, "heuristic", None)?;
/// let state = game.new_state(5)?;
/// let choice = bot.choose(&state, 1, 1)?;
/// assert_eq!((choice.action, choice.notation.as_deref()), (Some(4), Some("R3<")));
/// # Ok::<(), diabolo::Error>(())
/// ```
pub struct Bot {
    raw: *mut sys::diabolo_bot,
}

// SAFETY: a bot may move to another thread; it is not shared between threads.
unsafe impl Send for Bot {}

impl fmt::Debug for Bot {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Bot").finish_non_exhaustive()
    }
}

impl fmt::Debug for Position {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Position").field("turn", &self.turn()).finish()
    }
}

impl Drop for Bot {
    fn drop(&mut self) {
        // SAFETY: raw is ours and freed once.
        unsafe { sys::diabolo_bot_free(self.raw) }
    }
}

impl Bot {
    /// A bot of `game` of `kind`, with its options as a JSON object (`None`: the defaults).
    pub fn new(game: &Game, kind: &str, options_json: Option<&str>) -> Result<Bot> {
        let kind = c_text("the bot's kind", kind)?;
        let options = c_optional("the bot's options", options_json)?;
        let mut raw = ptr::null_mut();
        check(|error| unsafe { sys::diabolo_bot_new(game.raw, kind.as_ptr(), pointer_of(&options), &mut raw, error) })?;
        Ok(Bot { raw })
    }

    /// The move the bot makes for `seat` now, from what that seat may know, its random
    /// choices drawn from `seed`: the same as Python's `bot.choose(state, seat, seed)`.
    pub fn choose(&self, state: &State, seat: Seat, seed: u64) -> Result<Choice> {
        let mut action = sys::DIABOLO_WAIT;
        let mut notation: *mut c_char = ptr::null_mut();
        let mut delay_us = 0i64;
        check(|error| unsafe {
            sys::diabolo_bot_choose(
                self.raw,
                state.raw,
                seat_raw(seat),
                seed,
                &mut action,
                &mut notation,
                &mut delay_us,
                error,
            )
        })?;
        let notation = if notation.is_null() {
            None
        } else {
            Some(owned_text(notation, &sys::diabolo_error::default())?)
        };
        Ok(Choice {
            action: if action == sys::DIABOLO_WAIT {
                None
            } else {
                Some(action)
            },
            notation,
            delay_us,
        })
    }
}
