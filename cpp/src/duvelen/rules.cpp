// Duvelen: rules, notation and invariants. Clause numbers refer to docs/games/duvelen.rst.
#include <algorithm>
#include <cstring>
#include <type_traits>

#include "diabolo/core/cardset.hpp"
#include "diabolo/core/index.hpp"
#include "diabolo/core/rng.hpp"
#include "diabolo/core/scores.hpp"
#include "diabolo/duvelen/duvelen.hpp"
#include "views.hpp"

namespace diabolo::duvelen {

static_assert(std::is_trivially_copyable_v<Position>, "clone must stay a memcpy");

namespace {

constexpr const char* kRankNames[kRanks] = {"A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K"};
constexpr const char* kSourceNames[kSources] = {"S", "R1", "R2", "R3", "R4", "W"};

constexpr uint64_t make_aces() noexcept {
    uint64_t aces = 0;
    for (int suit = 0; suit < kSuits; ++suit) aces |= card_bit(card_index(suit, 1));
    return aces;
}
constexpr uint64_t kAces = make_aces();  // D3.2: an Ace is always wanted

uint8_t bit(int seat) noexcept { return static_cast<uint8_t>(1u << seat); }
uint8_t all_seats(const Position& s) noexcept { return static_cast<uint8_t>((1u << s.players()) - 1); }

/// The card at `source` of `seat`, or -1 if it is empty.
int card_at(const Seat& seat, Source source) noexcept {
    switch (source) {
        case Source::Stok: return seat.stok_top();
        case Source::Waste: return seat.waste_top();
        default: {
            const uint8_t card = seat.rij[static_cast<std::size_t>(source) - 1];
            return card == kNoCard ? -1 : card;
        }
    }
}

int pop_stok(Seat& seat) noexcept {  // D3.5: the next card turns up
    const int card = seat.stok[0];
    std::memmove(seat.stok.data(), seat.stok.data() + 1, static_cast<std::size_t>(seat.stok_count - 1));
    seat.stok[at(--seat.stok_count)] = 0;
    return card;
}

void remove_from(Seat& seat, Source source) noexcept {
    switch (source) {
        case Source::Stok: pop_stok(seat); return;
        case Source::Waste: {  // D3.6: the card below is next
            const std::size_t top = seat.waste_count - 1u;
            seat.cycle_mask &= ~card_bit(seat.cycle[top]);
            seat.seen &= seat.cycle_mask;
            std::memmove(seat.cycle.data() + top, seat.cycle.data() + top + 1, seat.cycle_count - top - 1);
            seat.cycle[at(--seat.cycle_count)] = 0;
            --seat.waste_count;
            if (seat.waste_count) seat.seen |= card_bit(seat.cycle[top - 1]);  // the card below shows (D3.6)
            return;
        }
        default: {  // D3.4: refill from the Stok
            uint8_t& slot = seat.rij[static_cast<std::size_t>(source) - 1];
            slot = seat.stok_count ? static_cast<uint8_t>(pop_stok(seat)) : kNoCard;
            return;
        }
    }
}

void turn(Seat& seat) noexcept {  // D3.7; only the new top shows (D8.2)
    seat.waste_count = static_cast<uint8_t>(seat.waste_count + std::min(kTurnCards, seat.draaistok_count()));
    seat.seen |= card_bit(seat.waste_top());
}

/// D4.3: after Stop, an empty waste takes the whole Draaistok, its bottom card on top.
/// Here and below, `log` is null except when a move is replayed for its events.
void flip_empty_wastes(Position& s, EventLog* log) {
    for (int p = 0; p < s.players(); ++p) {
        Seat& seat = s.seats[at(p)];
        if (seat.waste_count == 0 && seat.cycle_count != 0) {
            seat.waste_count = seat.cycle_count;
            seat.seen |= card_bit(seat.waste_top());
            if (log) events::draaistok_flipped(*log, s, p);
        }
    }
}

void deal(Seat& seat, const Deck& deck) noexcept {  // D2.1-D2.3, D2.5
    seat = Seat{};
    for (int i = 0; i < kStokCards; ++i) seat.stok[at(i)] = deck[at(i)];
    seat.stok_count = kStokCards;
    for (int i = 0; i < kRijSlots; ++i) seat.rij[at(i)] = deck[at(kStokCards + i)];
    for (int i = 0; i < kCycleCards; ++i) {
        seat.cycle[at(i)] = deck[at(kStokCards + kRijSlots + i)];
        seat.cycle_mask |= card_bit(seat.cycle[at(i)]);
    }
    seat.cycle_count = kCycleCards;
}

Deck shuffled_deck(uint64_t seed, int round, int seat) noexcept {
    Deck deck{};
    for (int card = 0; card < kDeckCards; ++card) deck[at(card)] = static_cast<uint8_t>(card);
    Pcg32 rng(derive_seed(derive_seed(seed, static_cast<uint64_t>(round)), static_cast<uint64_t>(seat)));
    rng.shuffle(deck.data(), deck.size());
    return deck;
}

void start_round(Position& s, int round, const std::vector<Deck>* decks, EventLog* log);

void end_round(Position& s, events::RoundEnd reason, EventLog* log) {
    if (log) events::round_ended(*log, s, reason);
    const auto points = round_scores(s);
    for (int p = 0; p < s.players(); ++p) s.scores[at(p)] += points[at(p)];
    if (s.round + 1 < s.game.rounds) {
        start_round(s, s.round + 1, nullptr, log);
    } else {
        s.phase = Phase::GameOver;
        if (log) game_ended(*log, s.scores, s.players());
    }
}

/// D4.5: a blocked position rotates every Stok until it unblocks, or ends the round.
void resolve_block(Position& s, EventLog* log) {
    if (!is_blocked(s)) return;
    if (log) events::blocked(*log);
    if (s.game.on_block == OnBlock::RotateStok) {
        int longest = 0;
        for (int p = 0; p < s.players(); ++p) longest = std::max(longest, int{s.seats[at(p)].stok_count});
        for (int i = 0; i < longest; ++i) {
            for (int p = 0; p < s.players(); ++p) {
                Seat& seat = s.seats[at(p)];
                if (seat.stok_count > 1)
                    std::rotate(seat.stok.begin(), seat.stok.begin() + 1, seat.stok.begin() + seat.stok_count);
            }
            if (log) events::stoks_rotated(*log, s);
            if (!is_blocked(s)) return;
        }
    }
    end_round(s, events::RoundEnd::Blocked, log);
}

void start_round(Position& s, int round, const std::vector<Deck>* decks, EventLog* log) {
    s.round = static_cast<uint8_t>(round);
    s.phase = Phase::Play;
    s.stop_called_by = -1;
    s.passed = 0;
    s.pile_count = 0;
    s.herenhoop_count = 0;
    s.actions = 0;
    s.wanted = kAces;
    s.tops = {};
    s.piles = {};
    for (int p = 0; p < s.players(); ++p) {
        deal(s.seats[at(p)], decks ? (*decks)[at(p)] : shuffled_deck(s.seed, round, p));
    }
    if (log) events::round_started(*log, s);
    resolve_block(s, log);
}

/// D4.4: after Stop the round ends once every pass stands or nobody can play a card.
bool after_stop_over(const Position& s) noexcept {
    if (s.passed == all_seats(s)) return true;
    for (int p = 0; p < s.players(); ++p) {
        if (s.seats[at(p)].available() & s.wanted) return false;
    }
    return true;
}

void play_card(Position& s, const Move& m, int player, EventLog* log) {
    remove_from(s.seats[at(player)], m.source);
    const int suit = suit_of(m.card);
    const int rank = rank_of(m.card);
    if (m.target == 0) {  // D3.2: a new pile
        Pile& pile = s.piles[s.pile_count++];
        pile = Pile{};
        pile.suit = static_cast<uint8_t>(suit);
        pile.top = 1;
        pile.owners[0] = static_cast<uint8_t>(player);
        ++s.tops[at(card_index(suit, 1))];
        s.wanted |= card_bit(card_index(suit, 2));
    } else {  // D3.3: one rank up
        Pile& pile = s.piles[at(m.target - 1)];
        if (--s.tops[at(card_index(suit, rank - 1))] == 0) s.wanted &= ~card_bit(m.card);
        pile.top = static_cast<uint8_t>(rank);
        pile.owners[at(rank - 1)] = static_cast<uint8_t>(player);
        if (rank == kRanks) {  // D3.9: a Herenhoop
            pile.holder = static_cast<int8_t>(player);
            pile.completed = ++s.herenhoop_count;
        } else {
            ++s.tops[at(m.card)];
            s.wanted |= card_bit(m.card + 1);
        }
    }
    s.passed = static_cast<uint8_t>(s.passed & ~bit(player));  // D4.4
    if (log) events::played(*log, s, m, player);
}

}  // namespace

// ---- configuration -----------------------------------------------------------------------

Game Game::from_options(const Options& o) {
    if (o.players < kMinPlayers || o.players > kMaxSeats) {
        throw OptionError("players must be 2..8 (D1.2), got " + std::to_string(o.players));
    }
    if (o.rounds < 1 || o.rounds > kMaxRounds) {
        throw OptionError("rounds must be 1.." + std::to_string(kMaxRounds) + " (D1.3), got " +
                          std::to_string(o.rounds));
    }
    if (o.max_actions < 1 || o.max_actions > 100000000) {
        throw OptionError("max_actions must be 1..100000000 (D4.5), got " + std::to_string(o.max_actions));
    }
    Game c;
    c.players = static_cast<uint8_t>(o.players);
    c.rounds = static_cast<uint8_t>(o.rounds);
    c.on_block = o.on_block;
    c.max_actions = static_cast<uint32_t>(o.max_actions);
    return c;
}

Options Game::to_options() const noexcept { return Options{players, rounds, on_block, static_cast<int>(max_actions)}; }

bool operator==(const Game& a, const Game& b) noexcept {
    return a.players == b.players && a.rounds == b.rounds && a.on_block == b.on_block && a.max_actions == b.max_actions;
}

uint64_t Seat::available() const noexcept {
    uint64_t mask = 0;
    if (stok_count) mask |= card_bit(stok[0]);
    for (uint8_t card : rij) {
        if (card != kNoCard) mask |= card_bit(card);
    }
    if (waste_count) mask |= card_bit(cycle[waste_count - 1u]);
    return mask;
}

uint64_t Seat::reachable() const noexcept {
    uint64_t mask = cycle_mask;
    if (stok_count) mask |= card_bit(stok[0]);
    for (uint8_t card : rij) {
        if (card != kNoCard) mask |= card_bit(card);
    }
    return mask;
}

// ---- notation (D7) ------------------------------------------------------------------------

std::string format_card(int card) { return std::string(kRankNames[rank_of(card) - 1]) + kSuitLetters[suit_of(card)]; }

int parse_card(std::string_view text) {
    const std::string example = "; cards are a rank A, 2-10, J, Q, K and a suit h, d, c, s, like '10h' (D7)";
    if (text.size() < 2 || text.size() > 3) throw NotationError("not a card: " + quoted(text) + example);
    const char* suit = std::strchr(kSuitLetters, text.back());
    if (text.back() == '\0' || suit == nullptr) throw NotationError("unknown suit in card " + quoted(text) + example);
    const std::string_view rank = text.substr(0, text.size() - 1);
    for (int r = 1; r <= kRanks; ++r) {
        if (rank == kRankNames[r - 1]) return card_index(static_cast<int>(suit - kSuitLetters), r);
    }
    throw NotationError("unknown rank in card " + quoted(text) + example);
}

std::string Rules::format_move(const Move& m) {
    switch (m.kind) {
        case MoveKind::Play: {
            const std::string source = kSourceNames[static_cast<int>(m.source)];
            const std::string target = m.target == 0 ? "new" : std::to_string(m.target);
            if (m.card == kNoCard) return source + ">" + target;
            return source + ":" + format_card(m.card) + ">" + target;
        }
        case MoveKind::Turn: return "turn";
        case MoveKind::Recycle: return "recycle";
        case MoveKind::RecycleUp: return "recycle^";
        case MoveKind::Stop: return "stop";
        case MoveKind::Pass: return "pass";
    }
    return "?";
}

Move parse_move(std::string_view text) {
    if (text == "turn") return Move::of_kind(MoveKind::Turn);
    if (text == "recycle") return Move::of_kind(MoveKind::Recycle);
    if (text == "recycle^") return Move::of_kind(MoveKind::RecycleUp);
    if (text == "stop") return Move::of_kind(MoveKind::Stop);
    if (text == "pass") return Move::of_kind(MoveKind::Pass);
    const std::string help =
        "; moves are like 'R2:7h>3', 'S:Ah>new', 'R2>3', 'turn', 'recycle', 'recycle^', "
        "'stop', 'pass' (D7)";
    const auto arrow = text.find('>');
    if (arrow == std::string_view::npos) throw NotationError("not a Duvelen move: " + quoted(text) + help);
    const std::string_view head = text.substr(0, arrow);
    const std::string_view target_text = text.substr(arrow + 1);
    const auto colon = head.find(':');
    const std::string_view source_text = head.substr(0, colon);
    int source = -1;
    for (int i = 0; i < kSources; ++i) {
        if (source_text == kSourceNames[i]) source = i;
    }
    if (source < 0) throw NotationError("unknown source in " + quoted(text) + ": sources are S, R1-R4, W" + help);
    int target = 0;
    if (target_text != "new") {
        if (target_text.empty() || target_text.size() > 2 ||
            !std::all_of(target_text.begin(), target_text.end(), [](char c) { return c >= '0' && c <= '9'; }) ||
            target_text[0] == '0') {
            throw NotationError("unknown target in " + quoted(text) + ": a pile number 1-32 or 'new'" + help);
        }
        target = std::stoi(std::string(target_text));
        if (target > kMaxPiles) throw NotationError("pile number out of range in " + quoted(text) + ": piles are 1-32");
    }
    const int card = colon == std::string_view::npos ? kNoCard : parse_card(head.substr(colon + 1));
    return Move::play(static_cast<Source>(source), card, target);
}

// ---- dealing -------------------------------------------------------------------------------

void check_deck(const Deck& deck) {
    uint64_t seen = 0;
    for (uint8_t card : deck) {
        if (card >= kDeckCards) throw StateFormatError("a deck holds an unknown card index");
        if (seen & card_bit(card)) {
            throw StateFormatError("a given deck holds " + format_card(card) +
                                   " twice; each deck is one full 52-card deck (D2.5)");
        }
        seen |= card_bit(card);
    }
}

Position new_game(const Game& game, uint64_t seed, const std::vector<Deck>* decks) {
    if (decks) {
        if (decks->size() != game.players) {
            throw StateFormatError("a given deal needs one deck per seat (D2.5): " + std::to_string(game.players) +
                                   " decks, got " + std::to_string(decks->size()));
        }
        for (const Deck& deck : *decks) check_deck(deck);
    }
    Position s;
    s.game = game;
    s.seed = seed;
    start_round(s, 0, decks, nullptr);
    return s;
}

void redeal(Position& s, const std::vector<Deck>& decks) {
    if (decks.size() != s.game.players) {
        throw StateFormatError("a given deal needs one deck per seat (D2.5), got " + std::to_string(decks.size()));
    }
    for (const Deck& deck : decks) check_deck(deck);
    if (s.phase != Phase::Play || s.actions != 0) {
        throw StateFormatError("a deal can only be replaced before the round's first action (D2.5)");
    }
    start_round(s, s.round, &decks, nullptr);
}

// ---- legality ------------------------------------------------------------------------------

namespace {

/// Every legal move of `player` in canonical order, handed to emit(move): one body for
/// moves (with their cards) and for action ids.
template <class Emit>
void each_legal_move(const Position& s, int player, Emit emit) noexcept {
    if (s.phase == Phase::GameOver || player < 0 || player >= s.players()) return;
    const Seat& seat = s.seats[at(player)];
    for (int source = 0; source < kSources; ++source) {
        const int card = card_at(seat, static_cast<Source>(source));
        if (card < 0 || !(s.wanted & card_bit(card))) continue;
        if (rank_of(card) == 1) {
            emit(Move::play(static_cast<Source>(source), card, 0));
            continue;
        }
        for (int id = 1; id <= s.pile_count; ++id) {
            const Pile& pile = s.piles[at(id - 1)];
            if (pile.holder < 0 && pile.suit == suit_of(card) && pile.top + 1 == rank_of(card)) {
                emit(Move::play(static_cast<Source>(source), card, id));
            }
        }
    }
    if (s.phase == Phase::Play) {
        if (seat.draaistok_count() > 0) emit(Move::of_kind(MoveKind::Turn));
        if (seat.draaistok_count() == 0 && seat.waste_count > 0) {
            emit(Move::of_kind(MoveKind::Recycle));
            emit(Move::of_kind(MoveKind::RecycleUp));
        }
        if (seat.stok_count == 0) emit(Move::of_kind(MoveKind::Stop));
    } else {
        emit(Move::of_kind(MoveKind::Pass));
    }
}

}  // namespace

int legal_moves(const Position& s, int player, std::array<Move, kNumActions>& out) noexcept {
    int n = 0;
    each_legal_move(s, player, [&](const Move& move) { out[at(n++)] = move; });
    return n;
}

int Rules::legal_actions(const Position& s, int player, int32_t* out) noexcept {
    int n = 0;
    each_legal_move(s, player, [&](const Move& move) { out[n++] = move.action(); });
    return n;
}

uint32_t Rules::pending_seats(const Position& s) noexcept {
    uint32_t seats = 0;
    std::array<int32_t, kNumActions> actions{};
    for (int p = 0; p < s.players(); ++p) {
        if (Rules::legal_actions(s, p, actions.data()) > 0) seats |= 1u << p;
    }
    return seats;
}

void Rules::apply_action(Position& s, int action, int player) noexcept {
    Move move = Move::of_action(action);
    if (move.kind == MoveKind::Play) move.card = static_cast<uint8_t>(card_at(s.seats[at(player)], move.source));
    apply_unchecked(s, move, player);
}

std::vector<Move> legal_moves(const Position& s, int player) {
    std::array<Move, kNumActions> moves{};
    const int n = legal_moves(s, player, moves);
    return std::vector<Move>(moves.begin(), moves.begin() + n);
}

std::optional<Move> resolve(const Position& s, int player, const Move& m) noexcept {
    if (m.kind != MoveKind::Play || m.card != kNoCard) return m;
    if (player < 0 || player >= s.players()) return std::nullopt;
    const int card = card_at(s.seats[at(player)], m.source);
    if (card < 0) return std::nullopt;
    return Move::play(m.source, card, m.target);
}

bool is_legal(const Position& s, const Move& m, int player) noexcept {
    std::array<Move, kNumActions> moves{};
    const int n = legal_moves(s, player, moves);
    return std::find(moves.begin(), moves.begin() + n, m) != moves.begin() + n;
}

std::optional<IllegalMoveError> Rules::why_illegal(const Position& s, const Move& m, int player) {
    if (s.phase == Phase::GameOver) return IllegalMoveError("D1.3", "the game is over", "game_over");
    const Seat& seat = s.seats[at(player)];
    const bool stopped = s.phase == Phase::AfterStop;
    switch (m.kind) {
        case MoveKind::Turn:
            if (stopped) return IllegalMoveError("D4.2", "nobody turns the Draaistok after Stop", "after_stop");
            if (seat.draaistok_count() == 0)
                return IllegalMoveError("D3.7", "the Draaistok is empty: recycle the waste", "draaistok_empty");
            return std::nullopt;
        case MoveKind::Recycle:
        case MoveKind::RecycleUp:
            if (stopped) return IllegalMoveError("D4.2", "nobody recycles after Stop", "after_stop");
            if (seat.draaistok_count() > 0)
                return IllegalMoveError("D3.8", "recycling waits until the Draaistok is empty", "draaistok_not_empty");
            if (seat.waste_count == 0) return IllegalMoveError("D3.8", "there is no waste to recycle", "waste_empty");
            return std::nullopt;
        case MoveKind::Stop:
            if (s.stop_called_by >= 0)
                return IllegalMoveError("D4.1", "Stop was already called this round", "stop_already_called");
            if (seat.stok_count > 0) return IllegalMoveError("D4.1", "Stop needs an empty Stok", "stok_not_empty");
            return std::nullopt;
        case MoveKind::Pass:
            if (!stopped) return IllegalMoveError("D4.4", "there is no pass before Stop", "pass_before_stop");
            return std::nullopt;
        case MoveKind::Play: break;
    }
    const std::string source = kSourceNames[static_cast<int>(m.source)];
    const int held = card_at(seat, m.source);
    const std::string who = std::to_string(player);
    if (held < 0) {
        return IllegalMoveError("D3.1", "seat " + who + " has no card at " + source, "source_empty",
                                {{"seat", who}, {"source", source}});
    }
    if (m.card != kNoCard && held != m.card) {
        return IllegalMoveError("D3.10", source + " holds " + format_card(held) + " now, not " + format_card(m.card),
                                "card_moved",
                                {{"source", source}, {"held", format_card(held)}, {"card", format_card(m.card)}});
    }
    const std::string card = format_card(held);
    if (rank_of(held) == 1) {
        if (m.target != 0) {
            return IllegalMoveError("D3.2", "an Ace starts a new pile: " + source + ":" + card + ">new",
                                    "ace_starts_a_pile", {{"card", card}});
        }
        return std::nullopt;
    }
    const std::string target = std::to_string(m.target);
    if (m.target == 0) return IllegalMoveError("D3.2", "only an Ace starts a new pile", "only_aces_start_piles");
    if (m.target > s.pile_count) {
        return IllegalMoveError("D7", "there is no pile " + target + " this round", "no_such_pile", {{"pile", target}});
    }
    const Pile& pile = s.piles[at(m.target - 1)];
    if (pile.holder >= 0) {
        return IllegalMoveError("D3.9", "pile " + target + " is complete and left the centre", "pile_complete",
                                {{"pile", target}});
    }
    if (pile.suit != suit_of(held) || pile.top + 1 != rank_of(held)) {
        const std::string next = format_card(card_index(pile.suit, pile.top + 1));
        return IllegalMoveError("D3.3", "pile " + target + " takes " + next + " next, not " + card,
                                "pile_wants_another", {{"pile", target}, {"next", next}, {"card", card}});
    }
    return std::nullopt;
}

// ---- applying moves ------------------------------------------------------------------------

namespace {

/// apply_unchecked, writing the move's events into `log` unless it is null.
void play(Position& s, const Move& m, int player, EventLog* log) {
    Seat& seat = s.seats[at(player)];
    const int waste_before = seat.waste_count;
    switch (m.kind) {
        case MoveKind::Play: play_card(s, m, player, log); break;
        case MoveKind::Turn:
            turn(seat);
            if (log) events::turned(*log, s, player, waste_before);
            break;
        case MoveKind::Recycle:
        case MoveKind::RecycleUp: {  // D3.8
            seat.waste_count = 0;
            const auto first = seat.cycle.begin();
            const auto last = seat.cycle.begin() + seat.cycle_count;
            if (m.kind == MoveKind::Recycle) std::rotate(first, first + 1, last);
            else std::rotate(first, last - 1, last);
            turn(seat);
            if (log) {
                events::recycled(*log, player, m.kind);
                events::turned(*log, s, player, 0);
            }
            break;
        }
        case MoveKind::Stop:  // D4.1, D4.2
            s.stop_called_by = static_cast<int8_t>(player);
            s.phase = Phase::AfterStop;
            if (log) events::stop_called(*log, s, player);
            break;
        case MoveKind::Pass:
            s.passed = static_cast<uint8_t>(s.passed | bit(player));
            if (log) events::passed(*log, player);
            break;
    }
    ++s.actions;
    if (s.phase == Phase::AfterStop) flip_empty_wastes(s, log);
    if (s.actions >= s.game.max_actions) {  // D4.5: the action cap
        end_round(s, events::RoundEnd::ActionCap, log);
    } else if (s.phase == Phase::AfterStop) {
        if (after_stop_over(s)) {  // D4.4
            end_round(s, s.passed == all_seats(s) ? events::RoundEnd::Passes : events::RoundEnd::NoPlays, log);
        }
    } else {
        resolve_block(s, log);  // D4.5
    }
}

}  // namespace

void apply_unchecked(Position& s, const Move& m, int player) noexcept { play(s, m, player, nullptr); }

namespace {

/// The move `m` means now (resolve), checked: PlayerError or IllegalMoveError unless
/// `player` may make it now.
Move checked_move(const Position& s, const Move& m, int player) {
    if (player < 0 || player >= s.players()) {
        throw PlayerError("player must be a seat 0.." + std::to_string(s.players() - 1) + ", got " +
                          std::to_string(player));
    }
    const std::optional<Move> move = resolve(s, player, m);
    if (!move || !is_legal(s, *move, player)) {
        if (auto error = Rules::why_illegal(s, move.value_or(m), player)) throw *error;
        throw IllegalMoveError("D3.1", Rules::format_move(m) + " is not legal now", "illegal_move",
                               {{"move", Rules::format_move(m)}});
    }
    return *move;
}

}  // namespace

void apply(Position& s, const Move& m, int player) { apply_unchecked(s, checked_move(s, m, player), player); }

bool is_blocked(const Position& s) noexcept {
    if (s.phase != Phase::Play) return false;
    for (int p = 0; p < s.players(); ++p) {
        const Seat& seat = s.seats[at(p)];
        if (seat.stok_count == 0 || (seat.reachable() & s.wanted)) return false;
    }
    return true;
}

std::vector<int> winners(const Position& s) { return best_seats(s.scores, s.players()); }

std::array<int32_t, kMaxSeats> round_scores(const Position& s) noexcept {
    std::array<int32_t, kMaxSeats> points{};
    for (int id = 0; id < s.pile_count; ++id) {
        const Pile& pile = s.piles[at(id)];
        for (int rank = 1; rank <= pile.top; ++rank) {
            const int owner = pile.owners[at(rank - 1)];
            points[at(owner)] += pile.holder == owner ? 2 : 1;  // D5.1, D5.2
        }
    }
    for (int p = 0; p < s.players(); ++p) points[at(p)] -= 2 * s.seats[at(p)].stok_count;  // D5.4
    if (s.stop_called_by >= 0) points[at(s.stop_called_by)] += kStopBonus;                 // D5.5
    return points;
}

// ---- information (D8) ----------------------------------------------------------------------

Position resample(const Position& s, uint64_t seed, Memory memory) {
    Position r = s;
    Pcg32 rng(seed, 0xD0E1E5ULL);
    for (int p = 0; p < s.players(); ++p) {
        Seat& seat = r.seats[at(p)];
        // Hidden places: Stok below the top, the Draaistok, the waste below its top; the
        // places of cards that have been a waste's top are not hidden from a memory.
        const uint64_t known = memory == Memory::WasteTops ? seat.seen : 0;
        const auto hidden_at = [&](int i) {
            return i != seat.waste_count - 1 && !(known & card_bit(seat.cycle[at(i)]));
        };
        uint64_t hidden = 0;
        for (int i = 1; i < seat.stok_count; ++i) hidden |= card_bit(seat.stok[at(i)]);
        for (int i = 0; i < seat.cycle_count; ++i) {
            if (hidden_at(i)) hidden |= card_bit(seat.cycle[at(i)]);
        }
        std::array<uint8_t, kDeckCards> cards{};
        std::size_t count = 0;
        for (uint64_t rest = hidden; rest; rest &= rest - 1) cards[count++] = static_cast<uint8_t>(lowest_bit64(rest));
        rng.shuffle(cards.data(), count);
        std::size_t next = 0;
        for (int i = 1; i < seat.stok_count; ++i) seat.stok[at(i)] = cards[next++];
        seat.cycle_mask = 0;
        for (int i = 0; i < seat.cycle_count; ++i) {
            if (hidden_at(i)) seat.cycle[at(i)] = cards[next++];
            seat.cycle_mask |= card_bit(seat.cycle[at(i)]);
        }
        // A deal without memory shows only the waste's top; one with it keeps all.
        seat.seen = known | (seat.waste_count ? card_bit(seat.waste_top()) : 0);
    }
    r.seed = mix64(seed ^ 0xD0E1E5ULL);  // the rounds to come are unknown too
    return r;
}

std::string check_invariants(const Position& s) {
    try {
        if (!(Game::from_options(s.game.to_options()) == s.game)) return "options are not normalised";
    } catch (const OptionError& e) {
        return std::string("options: ") + e.what();
    }
    const int n = s.players();
    if (s.round >= s.game.rounds) return "round is not below rounds";
    if (s.pile_count > kMaxPiles || s.herenhoop_count > s.pile_count) return "pile counts out of range";
    if (s.passed & ~all_seats(s)) return "passes name seats that do not exist";
    if (s.stop_called_by >= n) return "stop names a seat that does not exist";
    if (s.stop_called_by >= 0 && s.seats[at(s.stop_called_by)].stok_count > 0) {
        return "Stop was called by a seat whose Stok is not empty (D4.1)";
    }
    std::array<uint64_t, kMaxSeats> seen{};
    const auto place = [&](int owner, int card) {
        if (owner >= n || card < 0 || card >= kDeckCards || (seen[at(owner)] & card_bit(card))) return false;
        seen[at(owner)] |= card_bit(card);
        return true;
    };
    for (int p = 0; p < kMaxSeats; ++p) {
        const Seat& seat = s.seats[at(p)];
        if (p >= n) {
            if (seat.stok_count || seat.cycle_count || s.scores[at(p)]) return "a seat beyond the players holds cards";
            continue;
        }
        if (seat.stok_count > kStokCards || seat.cycle_count > kCycleCards || seat.waste_count > seat.cycle_count) {
            return "seat " + std::to_string(p) + " has a pile count out of range";
        }
        uint64_t cycle = 0;
        for (int i = 0; i < seat.stok_count; ++i) {
            if (!place(p, seat.stok[at(i)])) return "card conservation broken in seat " + std::to_string(p) + "'s Stok";
        }
        for (uint8_t card : seat.rij) {
            if (card != kNoCard && !place(p, card))
                return "card conservation broken in seat " + std::to_string(p) + "'s Rij";
        }
        for (int i = 0; i < seat.cycle_count; ++i) {
            if (!place(p, seat.cycle[at(i)]))
                return "card conservation broken in seat " + std::to_string(p) + "'s Draaistok";
            cycle |= card_bit(seat.cycle[at(i)]);
        }
        if (cycle != seat.cycle_mask) return "seat " + std::to_string(p) + "'s cycle mask is stale";
        if ((seat.seen & ~cycle) || (seat.waste_count && !(seat.seen & card_bit(seat.waste_top())))) {
            return "seat " + std::to_string(p) + " has seen cards outside its cycle, or not its waste's top";
        }
        if (seat.stok_count > 0 && std::find(seat.rij.begin(), seat.rij.end(), kNoCard) != seat.rij.end()) {
            return "an empty Rij slot while the Stok has cards (D3.4)";
        }
        if (s.phase != Phase::Play && seat.waste_count == 0 && seat.cycle_count > 0 && s.stop_called_by >= 0) {
            return "after Stop an empty waste must have taken the Draaistok (D4.3)";
        }
    }
    std::array<uint8_t, kSuits * kRanks> tops{};
    uint64_t wanted = kAces;
    int completed = 0;
    uint64_t orders = 0;  // completion numbers seen
    for (int id = 0; id < s.pile_count; ++id) {
        const Pile& pile = s.piles[at(id)];
        if (pile.suit >= kSuits || pile.top < 1 || pile.top > kRanks) return "a pile has a bad suit or top";
        for (int rank = 1; rank <= pile.top; ++rank) {
            if (!place(pile.owners[at(rank - 1)], card_index(pile.suit, rank))) {
                return "card conservation broken in pile " + std::to_string(id + 1);
            }
        }
        if ((pile.top == kRanks) != (pile.holder >= 0) || pile.holder >= n)
            return "a Herenhoop must be exactly a pile up to its King";
        if (pile.holder >= 0) {
            ++completed;
            if (pile.holder != pile.owners[kRanks - 1])
                return "a Herenhoop's holder is the seat that played its King (D3.9)";
            if (pile.completed < 1 || pile.completed > s.herenhoop_count || (orders & (1ULL << pile.completed))) {
                return "Herenhopen must be numbered 1.. in the order they were completed";
            }
            orders |= 1ULL << pile.completed;
        } else {
            if (pile.completed != 0) return "a pile in the centre has no completion number";
            ++tops[at(card_index(pile.suit, pile.top))];
            wanted |= card_bit(card_index(pile.suit, pile.top + 1));
        }
    }
    if (completed != s.herenhoop_count) return "Herenhoop count does not match the piles";
    if (tops != s.tops || wanted != s.wanted) return "the centre's masks are stale";
    for (int p = 0; p < n; ++p) {
        if (seen[at(p)] != (1ULL << kDeckCards) - 1) return "seat " + std::to_string(p) + "'s deck is not complete";
    }
    switch (s.phase) {
        case Phase::Play:
            if (s.stop_called_by >= 0 || s.passed) return "play phase with a Stop or passes";
            if (is_blocked(s)) return "a blocked position should have been resolved (D4.5)";
            break;
        case Phase::AfterStop:
            if (s.stop_called_by < 0) return "after-Stop phase without a Stop";
            if (after_stop_over(s)) return "the round should have ended: every pass stands or nobody can play (D4.4)";
            break;
        case Phase::GameOver:
            if (s.round != s.game.rounds - 1) return "game over before the last round";
            break;
        default: return "unknown phase";
    }
    if (s.phase != Phase::GameOver && s.actions >= s.game.max_actions)
        return "the action cap should have ended the round";
    return {};
}

// ---- the record ------------------------------------------------------------------------------

State State::start(const Game& game, uint64_t seed, const std::vector<Deck>* decks) {
    State t;
    t.position = new_game(game, seed, decks);
    return t;
}

void State::apply(const Move& move, int player) {
    const Move checked = checked_move(position, move, player);
    history.push_back(Step{player, checked});
    keep_position_before_move(*this);
    apply_unchecked(position, checked, player);
    for (std::size_t p = 0; p < rewards.size(); ++p) rewards[p] = position.scores[p] - before->scores[p];
}

Events State::last_events() const {
    return replay_last_move(
        *this, [](Position& s, const Move& move, int player, EventLog& log) { play(s, move, player, &log); });
}

int64_t Rules::max_game_length(const Game& game) noexcept {
    // Every move counts towards the action cap that ends a round (D4.5).
    return int64_t{game.rounds} * game.max_actions;
}

int64_t Rules::min_utility(const Game& game) noexcept { return int64_t{game.rounds} * kMinRoundScore; }

int64_t Rules::max_utility(const Game& game) noexcept { return int64_t{game.rounds} * kMaxRoundScore; }

std::string State::check() const {
    std::string problem = check_invariants(position);
    if (!problem.empty()) return problem;
    for (const Step& step : history) {
        if (step.player < 0 || step.player >= position.players()) return "history names a seat that does not exist";
    }
    return {};
}

State State::resample(int, uint64_t seed) const {
    State t;
    t.position = duvelen::resample(position, seed);
    t.history = history;
    return t;
}

}  // namespace diabolo::duvelen
