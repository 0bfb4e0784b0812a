// Diabolo (Schacht): rules, notation and invariants. Clause numbers refer to
// docs/games/schacht.rst.
#include "diabolo/schacht/schacht.hpp"

#include <algorithm>
#include <cstring>
#include <type_traits>

#include "diabolo/core/rng.hpp"
#include "diabolo/core/scores.hpp"
#include "views.hpp"

namespace diabolo::schacht {

static_assert(std::is_trivially_copyable_v<Position>, "clone must stay a memcpy");

namespace {

constexpr CardSet make_kind_first_slots() noexcept {
    CardSet set{};
    for (int kind = 0; kind < kKinds; ++kind) set.set(kind * kMaxCopies);
    return set;
}
constexpr CardSet kKindFirstSlots = make_kind_first_slots();

constexpr std::array<CardSet, kColours> kColourMasks = {
    CardSet::range(0 * kSlotsPerColour, kSlotsPerColour), CardSet::range(1 * kSlotsPerColour, kSlotsPerColour),
    CardSet::range(2 * kSlotsPerColour, kSlotsPerColour), CardSet::range(3 * kSlotsPerColour, kSlotsPerColour),
    CardSet::range(4 * kSlotsPerColour, kSlotsPerColour)};

/// The slots of the colours in a set of colours (bit c: colour c), for each of the 32 sets:
/// the cards a scoring revealed (S5.3), without a loop over the colours.
constexpr std::array<CardSet, 1u << kColours> make_colour_set_masks() {
    std::array<CardSet, 1u << kColours> masks{};
    for (std::size_t colours = 0; colours < masks.size(); ++colours) {
        for (std::size_t colour = 0; colour < kColours; ++colour) {
            if ((colours >> colour) & 1u) masks[colours] = masks[colours] | kColourMasks[colour];
        }
    }
    return masks;
}
constexpr std::array<CardSet, 1u << kColours> kColourSetMasks = make_colour_set_masks();

/// The slots of every colour whose row is closed (S3.1): no card of them can be placed.
CardSet closed_colours(const Position& s) noexcept {
    CardSet closed{};
    for (int colour = 0; colour < kColours; ++colour) {
        if (s.rows[static_cast<std::size_t>(colour)].closed()) closed |= kColourMasks[static_cast<std::size_t>(colour)];
    }
    return closed;
}

uint8_t bit(int seat) noexcept { return static_cast<uint8_t>(1u << seat); }
int next_seat(const Position& s, int seat) noexcept { return (seat + 1) % s.players(); }

}  // namespace

// ---- configuration ---------------------------------------------------------------

Game Game::from_options(const Options& o) {
    const int low = o.strict_players ? kMinPlayers : kMinPlayersRelaxed;
    const int high = o.strict_players ? kMaxPlayers : kMaxSeats;
    if (o.players < low || o.players > high) {
        throw OptionError("players must be " + std::to_string(low) + ".." + std::to_string(high) +
                          (o.strict_players ? " (S1.1; strict_players=False allows 2..8)" : "") + ", got " +
                          std::to_string(o.players));
    }
    if (o.rounds < 0 || o.rounds > kMaxRounds) {
        throw OptionError("rounds must be 1.." + std::to_string(kMaxRounds) + " (S6.1), got " +
                          std::to_string(o.rounds));
    }
    if (o.rows_to_end < 0 || o.rows_to_end > kColours) {
        throw OptionError("rows_to_end must be 1..5 (S4.1), got " + std::to_string(o.rows_to_end));
    }
    Game c;
    c.players = static_cast<uint8_t>(o.players);
    c.rounds = static_cast<uint8_t>(o.rounds ? o.rounds : o.players);
    c.rows_to_end = static_cast<uint8_t>(o.rows_to_end ? o.rows_to_end : (o.players >= 5 ? 3 : 2));
    c.strict_players = o.strict_players ? 1 : 0;
    int per_colour = 0;
    for (int v = 0; v < kValues; ++v) {
        const int n = o.value_counts[static_cast<std::size_t>(v)];
        if (n < 0 || n > kMaxCopies) {
            throw OptionError("value_counts[" + std::to_string(v) + "] (copies of value " + std::to_string(v + 1) +
                              " per colour) must be 0..5, got " + std::to_string(n));
        }
        c.value_counts[static_cast<std::size_t>(v)] = static_cast<uint8_t>(n);
        per_colour += n;
    }
    if (per_colour * kColours < kHandSize * o.players) {
        throw OptionError("value_counts give a deck of " + std::to_string(per_colour * kColours) +
                          " cards, too few to deal 6 to each of " + std::to_string(o.players) + " players (S2.1)");
    }
    return c;
}

Options Game::to_options() const noexcept {
    Options o;
    o.players = players;
    o.rounds = rounds;
    o.rows_to_end = rows_to_end;
    for (int v = 0; v < kValues; ++v)
        o.value_counts[static_cast<std::size_t>(v)] = value_counts[static_cast<std::size_t>(v)];
    o.strict_players = strict_players != 0;
    return o;
}

int Game::deck_size() const noexcept {
    int per_colour = 0;
    for (auto n : value_counts) per_colour += n;
    return per_colour * kColours;
}

CardSet Game::full_deck() const noexcept {
    CardSet deck{};
    for (int kind = 0; kind < kKinds; ++kind) {
        deck |= CardSet::range(kind * kMaxCopies, value_counts[static_cast<std::size_t>(kind % kValues)]);
    }
    return deck;
}

bool operator==(const Game& a, const Game& b) noexcept {
    return a.players == b.players && a.rounds == b.rounds && a.rows_to_end == b.rows_to_end &&
           a.strict_players == b.strict_players && a.value_counts == b.value_counts;
}

int Row::devil_sum() const noexcept {
    int sum = 0;
    for (int i = 0; i < left_count; ++i) sum += left[static_cast<std::size_t>(i)];
    return sum;
}

int Row::angel_sum() const noexcept {
    int sum = 0;
    for (int i = 0; i < right_count; ++i) sum += right[static_cast<std::size_t>(i)];
    return sum;
}

int Position::closed_rows() const noexcept {
    int closed = 0;
    for (const Row& row : rows) closed += row.closed() ? 1 : 0;
    return closed;
}

int Position::cards_played() const noexcept {
    int played = 0;
    for (const Row& row : rows) played += row.size();
    for (const CardSet& cards : discarded) played += cards.count();
    return played;
}

// ---- card sets -------------------------------------------------------------------

CardSet colour_mask(int colour) noexcept { return kColourMasks[static_cast<std::size_t>(colour)]; }

CardSet kinds_held(CardSet set) noexcept { return set & kKindFirstSlots; }

int colour_sum(CardSet set, int colour) noexcept {
    // The colour's slots read once, a value's group at a time (count_of's rule: a group's
    // copies fill its lowest slots): scoring reads every seat's sum of every colour.
    uint64_t groups = set.bits(colour * kSlotsPerColour, kSlotsPerColour);
    int sum = 0;
    for (int value = 1; value <= kValues; ++value, groups >>= kMaxCopies)
        sum += value * lowest_bit64((groups & ((1u << kMaxCopies) - 1)) + 1);
    return sum;
}

std::array<int, kColours> colour_sums(CardSet set) noexcept {
    std::array<int, kColours> sums{};
    while (!set.empty()) {
        const int kind = set.pop_lowest() / kMaxCopies;
        sums[static_cast<std::size_t>(kind / kValues)] += kind % kValues + 1;
    }
    return sums;
}

std::vector<Card> cards_of(CardSet set) {
    std::vector<Card> cards;
    cards.reserve(static_cast<std::size_t>(set.count()));
    while (!set.empty()) cards.push_back(Card{static_cast<uint8_t>(set.pop_lowest() / kMaxCopies)});
    return cards;
}

// ---- notation (S8) -----------------------------------------------------------------

std::string format_card(Card card) {
    std::string text(2, ' ');
    write_card_notation(card, text.data());
    return text;
}

namespace {

[[noreturn]] void not_a_card(std::string_view text) {
    if (text.size() != 2) {
        throw NotationError("a card is a colour letter (R, Y, G, P, B) and a value 1-5, like 'G5'; got " +
                            quoted(text));
    }
    if (views::colour_of_letter(text[0]) < 0) {
        throw NotationError("unknown colour " + quoted(text.substr(0, 1)) + " in card " + quoted(text) +
                            ": colours are R, Y, G, P, B (S8)");
    }
    throw NotationError("unknown value " + quoted(text.substr(1, 1)) + " in card " + quoted(text) +
                        ": values are 1-5 (S1.3)");
}

}  // namespace

Card parse_card(std::string_view text) {
    if (text.size() == 2) {
        const int colour = views::colour_of_letter(text[0]);
        const unsigned value = static_cast<unsigned>(text[1] - '1');
        if (colour >= 0 && value < static_cast<unsigned>(kValues)) return Card::of(colour, static_cast<int>(value) + 1);
    }
    not_a_card(text);
}

std::string Rules::format_move(const Move& move) {
    char text[views::kLongestMove];
    return std::string(text, views::write_move_notation(move, text));
}

Move parse_move(std::string_view text) {
    if (text.size() == 3 && (text[2] == '<' || text[2] == '>'))  // the most common first: a history is read often
        return Move::place(parse_card(text.substr(0, 2)), text[2] == '<' ? Side::Left : Side::Right);
    if (text.size() == 3 && text[0] == 'x') return Move::discard(parse_card(text.substr(1)));
    if (text == "bet") return Move::bet();
    if (text == "hold") return Move::hold();
    throw NotationError("not a Schacht move: " + quoted(text) +
                        "; moves are like 'G5<' (devil side), 'G5>' (angel side), 'xG5' (discard, S3.3), "
                        "'bet' or 'hold' (S5.3)");
}

Move Move::from_action(int action) {
    if (action < 0 || action >= kNumActions) {
        throw NotationError("action id " + std::to_string(action) + " is out of range 0.." +
                            std::to_string(kNumActions - 1));
    }
    return of_action(action);
}

// ---- dealing and turns (S2) ----------------------------------------------------------

namespace {

/// A deal: the cards of a round in deal order, on the stack.
struct Deck {
    std::array<Card, kMaxDeck + 8> cards{};  // 8 more: shuffled_deck writes a kind's copies 8 bytes at a time
    int size = 0;
};
static_assert(sizeof(Card) == 1 && std::is_trivially_copyable_v<Card> && kMaxCopies <= 8,
              "a card is its kind's byte; a kind's copies fit 8 bytes");

Deck deck_of(const std::vector<Card>& cards) {
    Deck deck;
    for (Card card : cards) deck.cards[static_cast<std::size_t>(deck.size++)] = card;
    return deck;
}

Deck shuffled_deck(const Game& game, uint64_t seed, int round) noexcept {
    Deck deck;
    std::size_t size = 0;  // a local: the compiler must assume the cards' stores change deck.size
    for (int kind = 0; kind < kKinds; ++kind) {
        // The kind's byte 8 times, of which the next kind's copies overwrite those past its own.
        const uint64_t copies8 = 0x0101010101010101ull * static_cast<uint64_t>(kind);
        std::memcpy(static_cast<void*>(deck.cards.data() + size), &copies8, 8);
        size += game.value_counts[static_cast<std::size_t>(kind % kValues)];
    }
    deck.size = static_cast<int>(size);
    Pcg32 rng(derive_seed(seed, static_cast<uint64_t>(round)));
    rng.shuffle(deck.cards.data(), static_cast<std::size_t>(deck.size));
    return deck;
}

void end_round(Position& s, events::RoundEnd reason, EventLog* log);

/// S2.3: `seat` is to move and draws first. Seats without cards (pile empty) are
/// skipped; when no seat has a card the round ends (engine decision). Here and below,
/// `log` is null except when a move is replayed for its events (events.cpp).
void begin_turn(Position& s, int seat, EventLog* log) {
    for (int tries = 0; tries < s.players(); ++tries, seat = next_seat(s, seat)) {
        if (s.pile_next < s.pile_end) {
            const Card card{s.pile[s.pile_next++]};
            add_card(s.hands[static_cast<std::size_t>(seat)], card);
            if (log) events::drew(*log, seat, card);
        }
        if (!s.hands[static_cast<std::size_t>(seat)].empty()) {
            s.current_player = static_cast<int8_t>(seat);
            if (log) events::turn(*log, seat);
            return;
        }
    }
    end_round(s, events::RoundEnd::NoCards, log);
}

/// S2.1, S2.4: deal 6 cards to each seat starting left of the dealer; the rest is the pile.
void deal(Position& s, const Deck& deck, EventLog* log) {
    const int n = s.players();
    for (int i = 0; i < n; ++i) {
        s.hands[static_cast<std::size_t>(i)] = CardSet{};
        s.shown[static_cast<std::size_t>(i)] = CardSet{};
        s.discarded[static_cast<std::size_t>(i)] = CardSet{};
    }
    std::size_t next = 0;
    for (int i = 0; i < n; ++i) {
        const int seat = (s.dealer + 1 + i) % n;
        for (int c = 0; c < kHandSize; ++c) add_card(s.hands[static_cast<std::size_t>(seat)], deck.cards[next++]);
    }
    s.pile_next = 0;
    s.pile_end = static_cast<uint8_t>(static_cast<std::size_t>(deck.size) - next);
    std::memcpy(s.pile.data(), deck.cards.data() + next,
                static_cast<std::size_t>(deck.size) - next);  // a card is its kind's byte
    if (log) events::round_started(*log, s);
    begin_turn(s, next_seat(s, s.dealer), log);
}

void start_round(Position& s, int round, const Deck& deck, EventLog* log) {
    s.round = static_cast<uint8_t>(round);
    s.dealer = static_cast<uint8_t>(round % s.players());
    s.phase = Phase::Play;
    s.scoring_colour = -1;
    s.revealed_colours = 0;
    s.doubler_available = static_cast<uint8_t>((1u << s.players()) - 1);  // S6.1
    s.decided = 0;
    s.bets = 0;
    s.rows = {};
    s.turns = {};
    s.turn_count = 0;
    deal(s, deck, log);
}

// ---- scoring (S5) --------------------------------------------------------------------

/// S5.3, S5.4, S5.6: reveal colour c and score it with the bets placed.
void score_colour(Position& s, int colour, int sign, EventLog* log) {
    s.revealed_colours = static_cast<uint8_t>(s.revealed_colours | (1u << colour));
    std::array<int, kMaxSeats> sums{}, points{};
    int best = 0;
    for (int seat = 0; seat < s.players(); ++seat) {
        sums[static_cast<std::size_t>(seat)] = colour_sum(s.hands[static_cast<std::size_t>(seat)], colour);
        best = std::max(best, sums[static_cast<std::size_t>(seat)]);
    }
    if (best > 0) {  // S5.6
        for (int seat = 0; seat < s.players(); ++seat) {
            if (sums[static_cast<std::size_t>(seat)] != best) continue;
            const int factor = (s.bets & bit(seat)) ? 2 : 1;
            points[static_cast<std::size_t>(seat)] = sign * best * factor;
            auto& score = s.scores[static_cast<std::size_t>(seat)];
            score = static_cast<int16_t>(score + points[static_cast<std::size_t>(seat)]);
        }
    }
    if (log) events::colour_scored(*log, s, colour, points.data());
    s.doubler_available = static_cast<uint8_t>(s.doubler_available & ~s.bets);  // S5.3, S5.7
    s.bets = 0;
    s.decided = 0;
}

/// Scores colours after `scoring_colour` in layout order (S5.1) until one needs doubler
/// decisions (S5.3) or the round's scoring is complete.
void continue_scoring(Position& s, EventLog* log) {
    for (int colour = s.scoring_colour + 1; colour < kColours; ++colour) {
        s.scoring_colour = static_cast<int8_t>(colour);
        const Row& row = s.rows[static_cast<std::size_t>(colour)];
        const int angel = row.angel_sum();
        const int devil = row.devil_sum();
        if (angel == devil) {  // S5.5
            if (log) events::colour_scored(*log, s, colour, std::array<int, kMaxSeats>{}.data());
            continue;
        }
        if (angel < devil) {
            score_colour(s, colour, -1, log);
            continue;
        }  // S5.4
        if (s.doubler_available == 0) {
            score_colour(s, colour, +1, log);
            continue;
        }
        s.phase = Phase::Doubler;  // S5.3
        s.current_player = kSimultaneous;
        if (log) events::doubler_asked(*log, s);
        return;
    }
    s.scoring_colour = -1;
    if (log) events::round_ended(*log, s);
    if (s.round + 1 < s.game.rounds) {  // S6.1
        const int round = s.round + 1;
        start_round(s, round, shuffled_deck(s.game, s.seed, round), log);
    } else {  // S6.2
        s.phase = Phase::GameOver;
        s.current_player = kTerminal;
        if (log) game_ended(*log, s.scores, s.players());
    }
}

void end_round(Position& s, events::RoundEnd reason, EventLog* log) {  // S4.1
    s.scoring_colour = -1;
    s.current_player = kSimultaneous;
    if (log) events::play_ended(*log, s, reason);
    continue_scoring(s, log);
}

/// redeal(), writing the new deal's events into `log` unless it is null.
void replace_deal(Position& s, const std::vector<Card>& deck, EventLog* log) {
    check_deck(s.game, deck);
    // Rows are empty only before a round's first placement, and no discard (S3.3) can
    // come before one: so this is the round's fresh deal.
    const bool fresh =
        s.phase == Phase::Play && std::all_of(s.rows.begin(), s.rows.end(), [](const Row& r) { return r.size() == 0; });
    if (!fresh) throw StateFormatError("a deal can only be replaced before the round's first move (S2.4)");
    start_round(s, s.round, deck_of(deck), log);
}

}  // namespace

void check_deck(const Game& game, const std::vector<Card>& deck) {
    if (static_cast<int>(deck.size()) != game.deck_size()) {
        throw StateFormatError("a given deal must list all " + std::to_string(game.deck_size()) +
                               " cards of the deck (S2.4), got " + std::to_string(deck.size()));
    }
    CardSet seen{};
    for (Card card : deck) {
        const int copies = game.value_counts[static_cast<std::size_t>(card.value() - 1)];
        if (count_of(seen, card) >= copies) {
            throw StateFormatError("a given deal has more than " + std::to_string(copies) + " " + format_card(card) +
                                   " (S1.3, S2.4)");
        }
        add_card(seen, card);
    }
}

Position new_game(const Game& game, uint64_t seed, const std::vector<Card>* deck) {
    if (deck) check_deck(game, *deck);
    Position s;
    s.game = game;
    s.seed = seed;
    start_round(s, 0, deck ? deck_of(*deck) : shuffled_deck(game, seed, 0), nullptr);
    return s;
}

void redeal(Position& s, const std::vector<Card>& deck) { replace_deal(s, deck, nullptr); }

// ---- legality ----------------------------------------------------------------------------

int acting_player(const Position& s, std::optional<int> player) {
    if (player) {
        if (*player < 0 || *player >= s.players()) {
            throw PlayerError("player must be a seat 0.." + std::to_string(s.players() - 1) + ", got " +
                              std::to_string(*player));
        }
        return *player;
    }
    if (s.current_player >= 0) return s.current_player;
    if (s.current_player == kSimultaneous) {
        throw PlayerError("doubler decisions are simultaneous (S5.3): name the player");
    }
    throw IllegalMoveError("S6.1", "the game is over: no player is to move", "game_over");
}

namespace {

/// legal_actions into uint8_t or int32_t ids: one body for the search's compact buffers and
/// the contract's.
template <class Id>
int fill_legal_actions(const Position& s, int player, Id* out) noexcept {
    int n = 0;
    if (player < 0 || player >= s.players()) return 0;
    if (s.phase == Phase::Doubler) {
        if ((s.doubler_available & bit(player)) && !(s.decided & bit(player))) {
            out[0] = kBetAction;
            out[1] = kHoldAction;
            return 2;
        }
        return 0;
    }
    if (s.phase != Phase::Play || player != s.current_player) return 0;
    CardSet held = kinds_held(s.hands[static_cast<std::size_t>(player)]);
    CardSet placeable = held & ~closed_colours(s);  // S3.1
    if (placeable.empty()) {                        // S3.3
        while (!held.empty()) out[n++] = static_cast<Id>(kDiscardBase + held.pop_lowest() / kMaxCopies);
        return n;
    }
    while (!placeable.empty()) {
        const int kind = placeable.pop_lowest() / kMaxCopies;
        const Row& row = s.rows[static_cast<std::size_t>(kind / kValues)];
        out[n] = static_cast<Id>(kind * 2);  // S3.2, branch-free
        n += row.left_count < kSideCards;
        out[n] = static_cast<Id>(kind * 2 + 1);
        n += row.right_count < kSideCards;
    }
    return n;
}

/// The slot of the `index`-th (from 0) set bit of `bits`.
int nth_bit(uint64_t bits, int index) noexcept {
    for (; index > 0; --index) bits &= bits - 1;
    return lowest_bit64(bits);
}

}  // namespace

int Rules::random_action(const Position& s, int player, Pcg32& rng) noexcept {
    // fill_legal_actions' ids in order: by kind, each kind's open sides left then right
    // (S3.2), as many for every kind of a colour; or the discards (S3.3); or bet, hold.
    if (player < 0 || player >= s.players()) return -1;
    if (s.phase == Phase::Doubler) {
        if (!(s.doubler_available & bit(player)) || (s.decided & bit(player))) return -1;
        return rng.below(2) == 0 ? kBetAction : kHoldAction;
    }
    if (s.phase != Phase::Play || player != s.current_player) return -1;
    const CardSet held = kinds_held(s.hands[static_cast<std::size_t>(player)]);
    // The kinds held of each colour: a bit at each one's first slot, bits 0, 5, .. 20 of its
    // 25, whose count one multiplication gathers at bit 20 (no field carries into another).
    static_assert(kSlotsPerColour == 25 && kMaxCopies == 5 && kValues == 5);
    static_assert(kRowCards <= 2 * kSideCards, "a row that is not closed has an open side: no ids means no row open");
    std::array<uint64_t, kColours> kinds{};
    std::array<int, kColours> sides{}, ids{};
    int count = 0;
    for (std::size_t c = 0; c < kColours; ++c) {
        const Row& row = s.rows[c];
        if (row.closed()) continue;  // S3.1
        kinds[c] = held.bits(static_cast<int>(c) * kSlotsPerColour, kSlotsPerColour);
        sides[c] = (row.left_count < kSideCards ? 1 : 0) + (row.right_count < kSideCards ? 1 : 0);
        ids[c] = static_cast<int>((kinds[c] * 0x108421u) >> 20 & 31u) * sides[c];
        count += ids[c];
    }
    if (count == 0) {  // S3.3: the discards of the kinds held (no row of one is open)
        if (held.empty()) return -1;
        CardSet rest = held;
        for (int pick = static_cast<int>(rng.below(static_cast<uint32_t>(held.count()))); pick > 0; --pick)
            rest.pop_lowest();
        return kDiscardBase + rest.lowest() / kMaxCopies;
    }
    int pick = static_cast<int>(rng.below(static_cast<uint32_t>(count)));
    std::size_t c = 0;
    while (pick >= ids[c]) pick -= ids[c++];
    const int kind = static_cast<int>(c) * kValues + nth_bit(kinds[c], pick / sides[c]) / kMaxCopies;
    const int side = sides[c] == 2 ? pick % 2 : (s.rows[c].left_count < kSideCards ? 0 : 1);
    return kind * 2 + side;
}

int Rules::legal_actions(const Position& s, int player, std::array<uint8_t, kNumActions>& out) noexcept {
    return fill_legal_actions(s, player, out.data());
}

int Rules::legal_actions(const Position& s, int player, int32_t* out) noexcept {
    return fill_legal_actions(s, player, out);
}

std::vector<Move> legal_moves(const Position& s, int player) {
    std::array<uint8_t, kNumActions> actions{};
    const int n = Rules::legal_actions(s, player, actions);
    std::vector<Move> moves;
    moves.reserve(static_cast<std::size_t>(n));
    for (int i = 0; i < n; ++i) moves.push_back(Move::of_action(actions[static_cast<std::size_t>(i)]));
    return moves;
}

std::optional<IllegalMoveError> Rules::why_illegal(const Position& s, const Move& m, int player) {
    if (is_legal(s, m, player)) return std::nullopt;  // the fast test; the diagnosis builds text
    const std::string who = "seat " + std::to_string(player);
    const std::string seat = std::to_string(player);
    if (s.phase == Phase::GameOver) return IllegalMoveError("S6.1", "the game is over", "game_over");
    const bool decision = m.kind == MoveKind::Bet || m.kind == MoveKind::Hold;
    if (s.phase == Phase::Doubler) {
        const std::string colour = kColourNames[s.scoring_colour];
        if (!decision) {
            return IllegalMoveError("S5.3",
                                    "the round is being scored: only 'bet' or 'hold' on " + colour +
                                        " can be played now, not '" + Rules::format_move(m) + "'",
                                    "doubler_decisions_only", {{"colour", colour}, {"move", Rules::format_move(m)}});
        }
        if (!(s.doubler_available & bit(player))) {
            return IllegalMoveError("S5.7", who + " has already spent the doubler this round", "doubler_spent",
                                    {{"seat", seat}});
        }
        if (s.decided & bit(player)) {
            return IllegalMoveError("S5.3", who + " has already decided on " + colour, "already_decided",
                                    {{"seat", seat}, {"colour", colour}});
        }
        return std::nullopt;
    }
    if (decision) {
        return IllegalMoveError("S5.3", "the doubler is only decided while a positive colour is scored",
                                "no_doubler_decision_now");
    }
    if (player != s.current_player) {
        return IllegalMoveError("S2.2", "it is seat " + std::to_string(s.current_player) + "'s turn, not " + who + "'s",
                                "not_your_turn", {{"to_move", std::to_string(s.current_player)}, {"seat", seat}});
    }
    const CardSet hand = s.hands[static_cast<std::size_t>(player)];
    const std::string card = format_card(m.card);
    if (count_of(hand, m.card) == 0) {
        return IllegalMoveError("S2.3", who + " holds no " + card, "card_not_in_hand",
                                {{"seat", seat}, {"card", card}});
    }
    const CardSet placeable = kinds_held(hand) & ~closed_colours(s);
    const Row& row = s.rows[static_cast<std::size_t>(m.card.colour())];
    const std::string colour = kColourNames[m.card.colour()];
    if (m.kind == MoveKind::Discard) {
        if (!placeable.empty()) {
            return IllegalMoveError("S3.3", "a card may only be discarded when none can be placed",
                                    "discard_not_allowed");
        }
        return std::nullopt;
    }
    if (row.closed()) {
        return IllegalMoveError("S3.1", "the " + colour + " row is closed (5 cards)", "row_closed",
                                {{"colour", colour}});
    }
    const int side_count = m.side == Side::Left ? row.left_count : row.right_count;
    if (side_count >= kSideCards) {
        const std::string side = m.side == Side::Left ? "devil" : "angel";
        return IllegalMoveError("S3.2", "the " + side + " side of the " + colour + " row already holds 3 cards",
                                "side_full", {{"side", side}, {"colour", colour}});
    }
    return std::nullopt;
}

bool is_legal(const Position& s, const Move& m, int player) noexcept {
    // fill_legal_actions' test for one move, without listing the others.
    if (player < 0 || player >= s.players()) return false;
    const int action = m.action();
    if (s.phase == Phase::Doubler) {
        return (action == kBetAction || action == kHoldAction) && (s.doubler_available & bit(player)) &&
               !(s.decided & bit(player));
    }
    if (s.phase != Phase::Play || player != s.current_player || action >= kBetAction) return false;
    const CardSet held = kinds_held(s.hands[static_cast<std::size_t>(player)]);
    const CardSet placeable = held & ~closed_colours(s);                                                      // S3.1
    if (action >= kDiscardBase) return placeable.empty() && held.test((action - kDiscardBase) * kMaxCopies);  // S3.3
    const int kind = action / 2;
    const Row& row = s.rows[static_cast<std::size_t>(kind / kValues)];
    return placeable.test(kind * kMaxCopies) && (action % 2 == 0 ? row.left_count : row.right_count) < kSideCards;
}

// ---- applying moves -------------------------------------------------------------------------

namespace {

/// apply_unchecked, writing the move's events into `log` unless it is null.
void play(Position& s, const Move& m, int player, EventLog* log) {
    auto& hand = s.hands[static_cast<std::size_t>(player)];
    if (m.kind == MoveKind::Place || m.kind == MoveKind::Discard) {
        // A round takes at most one turn per card of the deck, so the record has room;
        // an unknown record (a state loaded without it) stays unknown. A record with a
        // turn is whole (check_turns), so cards are counted only at a round's first turn.
        if (s.turn_count > 0 || s.cards_played() == 0)
            s.turns[s.turn_count++] = Turn{static_cast<uint8_t>(player), static_cast<uint8_t>(m.action())};
    }
    switch (m.kind) {
        case MoveKind::Place: {
            remove_card(hand, m.card);
            Row& row = s.rows[static_cast<std::size_t>(m.card.colour())];
            if (m.side == Side::Left) row.left[row.left_count++] = static_cast<uint8_t>(m.card.value());
            else row.right[row.right_count++] = static_cast<uint8_t>(m.card.value());
            if (log) events::placed(*log, s, player, m);
            if (row.closed() && s.closed_rows() >= s.game.rows_to_end) {
                end_round(s, events::RoundEnd::RowsClosed, log);  // S4.1
            } else {
                begin_turn(s, next_seat(s, player), log);
            }
            return;
        }
        case MoveKind::Discard: {  // S3.3
            remove_card(hand, m.card);
            s.shown[static_cast<std::size_t>(player)] = hand;
            add_card(s.discarded[static_cast<std::size_t>(player)], m.card);
            if (log) events::discarded(*log, s, player, m.card);
            begin_turn(s, next_seat(s, player), log);
            return;
        }
        case MoveKind::Bet:
        case MoveKind::Hold: {  // S5.3
            s.decided = static_cast<uint8_t>(s.decided | bit(player));
            if (m.kind == MoveKind::Bet) s.bets = static_cast<uint8_t>(s.bets | bit(player));
            if (log) events::doubler_decided(*log, player, m.kind == MoveKind::Bet);
            if (s.decided == s.doubler_available) {
                score_colour(s, s.scoring_colour, +1, log);
                s.phase = Phase::Play;
                continue_scoring(s, log);
            }
            return;
        }
    }
}

}  // namespace

void apply_unchecked(Position& s, const Move& m, int player) noexcept { play(s, m, player, nullptr); }

namespace {

/// PlayerError or IllegalMoveError unless `player` may make `m` now.
void check_move(const Position& s, const Move& m, int player) {
    if (player < 0 || player >= s.players()) {
        throw PlayerError("player must be a seat 0.." + std::to_string(s.players() - 1) + ", got " +
                          std::to_string(player));
    }
    if (!is_legal(s, m, player)) {  // the fast test; the message is built only on failure
        if (auto error = Rules::why_illegal(s, m, player)) throw *error;
        throw IllegalMoveError("S2.3", Rules::format_move(m) + " is not legal now", "illegal_move",
                               {{"move", Rules::format_move(m)}});
    }
}

}  // namespace

void apply(Position& s, const Move& m, int player) {
    check_move(s, m, player);
    apply_unchecked(s, m, player);
}

// ---- information (S7) ------------------------------------------------------------------------

CardSet known_cards(const Position& s, int seat) noexcept {
    const CardSet revealed = kColourSetMasks[s.revealed_colours & ((1u << kColours) - 1)];
    return s.shown[static_cast<std::size_t>(seat)] | (s.hands[static_cast<std::size_t>(seat)] & revealed);
}

Position Rules::resample(const Position& s, int player, uint64_t seed) {
    Position r = s;
    // Unseen cards: the deck minus the rows, the discards, the player's hand and every
    // card known to be in another hand. Counted per kind; dealt in canonical order.
    std::array<int, kKinds> unseen{};
    for (int kind = 0; kind < kKinds; ++kind)
        unseen[static_cast<std::size_t>(kind)] = s.game.value_counts[static_cast<std::size_t>(kind % kValues)];
    for (int colour = 0; colour < kColours; ++colour) {
        const Row& row = s.rows[static_cast<std::size_t>(colour)];
        for (int i = 0; i < row.left_count; ++i)
            --unseen[static_cast<std::size_t>(colour * kValues + row.left[static_cast<std::size_t>(i)] - 1)];
        for (int i = 0; i < row.right_count; ++i)
            --unseen[static_cast<std::size_t>(colour * kValues + row.right[static_cast<std::size_t>(i)] - 1)];
    }
    std::array<CardSet, kMaxSeats> keep{};
    for (int seat = 0; seat < s.players(); ++seat) {
        keep[static_cast<std::size_t>(seat)] =
            seat == player ? s.hands[static_cast<std::size_t>(seat)] : known_cards(s, seat);
        for (Card c : cards_of(keep[static_cast<std::size_t>(seat)])) --unseen[c.kind];
        for (Card c : cards_of(s.discarded[static_cast<std::size_t>(seat)])) --unseen[c.kind];
    }
    // Hands hold no unseen card of a colour revealed at scoring (every hand's cards of it
    // are known), so those go to the pile; the other unseen cards are dealt uniformly.
    std::vector<Card> free_cards, pile_only;
    for (int kind = 0; kind < kKinds; ++kind) {
        const bool revealed = (s.revealed_colours >> (kind / kValues)) & 1u;
        for (int i = 0; i < unseen[static_cast<std::size_t>(kind)]; ++i) {
            (revealed ? pile_only : free_cards).push_back(Card{static_cast<uint8_t>(kind)});
        }
    }
    Pcg32 rng(seed, 0x5EED5A3B1E5ULL);
    rng.shuffle(free_cards.data(), free_cards.size());
    std::size_t next = 0;
    for (int seat = 0; seat < s.players(); ++seat) {
        CardSet hand = keep[static_cast<std::size_t>(seat)];
        const int missing = s.hands[static_cast<std::size_t>(seat)].count() - hand.count();
        for (int i = 0; i < missing; ++i) add_card(hand, free_cards[next++]);
        r.hands[static_cast<std::size_t>(seat)] = hand;
    }
    std::vector<Card> pile(free_cards.begin() + static_cast<std::ptrdiff_t>(next), free_cards.end());
    pile.insert(pile.end(), pile_only.begin(), pile_only.end());
    rng.shuffle(pile.data(), pile.size());
    r.pile = {};
    r.pile_next = 0;
    r.pile_end = static_cast<uint8_t>(pile.size());
    for (std::size_t i = 0; i < pile.size(); ++i) r.pile[i] = pile[i].kind;
    // Other seats' doubler decisions on this colour are secret (S5.3): undecided again.
    r.decided = static_cast<uint8_t>(s.decided & bit(player));
    r.bets = static_cast<uint8_t>(s.bets & bit(player));
    r.seed = mix64(seed ^ 0xD1CE5EEDULL);  // rounds to come are unknown too
    return r;
}

std::vector<int> winners(const Position& s) { return best_seats(s.scores, s.players()); }

// ---- invariants ------------------------------------------------------------------------------

namespace {

/// S2.1, S2.3: every seat is dealt 6 cards and a turn is a draw (while the pile lasts)
/// and one card out of the hand, so no hand ever holds more than 6 cards, but the hand
/// of the seat to move, which holds 7 after its draw. Fewer cards are accepted: a
/// position set up by hand (a rulebook example, a puzzle) may leave cards in the pile.
std::string check_hand_sizes(const Position& s) {
    for (int seat = 0; seat < s.players(); ++seat) {
        const int most = kHandSize + (s.phase == Phase::Play && seat == s.current_player ? 1 : 0);
        const int held = s.hands[static_cast<std::size_t>(seat)].count();
        if (held > most) {
            return "seat " + std::to_string(seat) + " holds " + std::to_string(held) + " cards; at most " +
                   std::to_string(most) + " fit the turns of a round (S2.1, S2.3)";
        }
    }
    return {};
}

}  // namespace

namespace {

/// The round's record of turns, if kept, made exactly the rows and the discards (S7.1).
std::string check_turns(const Position& s) {
    if (s.turn_count > kMaxDeck) return "more turns than cards";
    for (int i = s.turn_count; i < kMaxDeck; ++i) {
        const Turn& unused = s.turns[static_cast<std::size_t>(i)];
        if (unused.seat != 0 || unused.action != 0) return "unused turn slots must be 0";
    }
    if (s.turn_count == 0) return {};
    if (!s.round_record_known()) return "the turns do not account for every card played this round";
    std::array<Row, kColours> rows{};
    std::array<CardSet, kMaxSeats> discarded{};
    for (int i = 0; i < s.turn_count; ++i) {
        const Turn& turn = s.turns[static_cast<std::size_t>(i)];
        if (turn.seat >= s.players() || turn.action >= kBetAction) return "a turn names no seat or no card";
        const Move move = Move::of_action(turn.action);
        Row& row = rows[static_cast<std::size_t>(move.card.colour())];
        if (move.kind == MoveKind::Discard) add_card(discarded[turn.seat], move.card);
        else if (move.side == Side::Left && row.left_count < kSideCards)
            row.left[row.left_count++] = static_cast<uint8_t>(move.card.value());
        else if (move.side == Side::Right && row.right_count < kSideCards)
            row.right[row.right_count++] = static_cast<uint8_t>(move.card.value());
        else return "the turns place more than 3 cards on a side (S3.2)";
    }
    for (int c = 0; c < kColours; ++c) {
        const Row& made = rows[static_cast<std::size_t>(c)];
        const Row& row = s.rows[static_cast<std::size_t>(c)];
        if (made.left != row.left || made.right != row.right || made.size() != row.size())
            return std::string("the turns do not make the ") + kColourNames[c] + " row";
    }
    if (discarded != s.discarded) return "the turns do not make the discards";
    return {};
}

}  // namespace

std::string check_invariants(const Position& s) {
    const Game& c = s.game;
    Game filled_in;
    try {
        filled_in = Game::from_options(c.to_options());
    } catch (const OptionError& e) {
        return std::string("options: ") + e.what();
    }
    if (c.rounds < 1) return "options: rounds must be at least 1";
    if (!(filled_in == c)) return "options: defaults must be filled in";
    const int n = s.players();
    if (s.round >= c.rounds) return "round " + std::to_string(s.round) + " is not below rounds";
    if (s.dealer != s.round % n) return "dealer must be round % players (S2.2)";
    const uint8_t all = static_cast<uint8_t>((1u << n) - 1);
    if ((s.doubler_available & ~all) || (s.decided & ~all) || (s.bets & ~all))
        return "doubler bits name seats that do not exist";
    if (s.revealed_colours >= (1u << kColours)) return "revealed colours out of range";
    if (s.pile_next > s.pile_end || s.pile_end > kMaxDeck) return "draw pile bounds out of range";
    // Card conservation: every card of the deck is in exactly one place.
    std::array<int, kKinds> count{};
    for (int i = s.pile_next; i < s.pile_end; ++i) {
        if (s.pile[static_cast<std::size_t>(i)] >= kKinds) return "draw pile holds an unknown card";
        ++count[s.pile[static_cast<std::size_t>(i)]];
    }
    const CardSet deck = c.full_deck();
    for (int seat = 0; seat < kMaxSeats; ++seat) {
        const auto i = static_cast<std::size_t>(seat);
        if (seat >= n) {
            if (!s.hands[i].empty() || !s.shown[i].empty() || !s.discarded[i].empty() || s.scores[i] != 0) {
                return "a seat beyond the players holds cards or points";
            }
            continue;
        }
        for (const CardSet* set : {&s.hands[i], &s.shown[i], &s.discarded[i]}) {
            if (!(*set & ~deck).empty()) return "seat " + std::to_string(seat) + " holds a card slot outside the deck";
            // Canonical: a kind's copies fill its slots from the lowest, so every slot but
            // a kind's first is taken only if the slot below it is.
            if (!(*set & ~CardSet::shifted_left(*set, 1) & ~kKindFirstSlots).empty())
                return "card set of seat " + std::to_string(seat) + " is not in canonical form";
        }
        // In canonical form, a set holds a subset of another exactly when its bits do.
        if (!(s.shown[i] & ~s.hands[i]).empty()) return "a shown card is not in the hand";
        for (CardSet shown = s.shown[i]; !shown.empty();) {
            const int colour = Card{static_cast<uint8_t>(shown.pop_lowest() / kMaxCopies)}.colour();
            if (!s.rows[static_cast<std::size_t>(colour)].closed()) return "a shown card's row is not closed (S3.3)";
        }
        for (const CardSet* set : {&s.hands[i], &s.discarded[i]}) {
            for (CardSet rest = *set; !rest.empty();) ++count[static_cast<std::size_t>(rest.pop_lowest() / kMaxCopies)];
        }
    }
    for (int colour = 0; colour < kColours; ++colour) {
        const Row& row = s.rows[static_cast<std::size_t>(colour)];
        if (row.left_count > kSideCards || row.right_count > kSideCards) return "a side holds more than 3 cards (S3.2)";
        if (row.size() > kRowCards) return "a row holds more than 5 cards (S3.1)";
        for (int i = 0; i < kSideCards; ++i) {
            const auto k = static_cast<std::size_t>(i);
            for (auto [values, used] : {std::pair{&row.left, row.left_count}, std::pair{&row.right, row.right_count}}) {
                const int v = (*values)[k];
                if (i < used && (v < 1 || v > kValues)) return "a row holds a value outside 1..5";
                if (i >= used && v != 0) return "unused row slots must be 0";
                if (i < used) ++count[static_cast<std::size_t>(colour * kValues + v - 1)];
            }
        }
    }
    for (int kind = 0; kind < kKinds; ++kind) {
        if (count[static_cast<std::size_t>(kind)] != c.value_counts[static_cast<std::size_t>(kind % kValues)]) {
            return "card conservation broken for " + format_card(Card{static_cast<uint8_t>(kind)}) + ": " +
                   std::to_string(count[static_cast<std::size_t>(kind)]) + " in play, deck has " +
                   std::to_string(c.value_counts[static_cast<std::size_t>(kind % kValues)]);
        }
    }
    if (const std::string problem = check_hand_sizes(s); !problem.empty()) return problem;
    if (const std::string problem = check_turns(s); !problem.empty()) return problem;
    switch (s.phase) {
        case Phase::Play:
            if (s.current_player < 0 || s.current_player >= n) return "play phase needs a seat to move";
            if (s.hands[static_cast<std::size_t>(s.current_player)].empty()) return "the player to move holds no card";
            if (s.closed_rows() >= c.rows_to_end) return "the round should have ended (S4.1)";
            if (s.scoring_colour != -1 || s.revealed_colours || s.decided || s.bets)
                return "play phase with scoring data";
            break;
        case Phase::Doubler: {
            if (s.current_player != kSimultaneous) return "doubler phase needs current_player SIMULTANEOUS";
            if (s.scoring_colour < 0 || s.scoring_colour >= kColours) return "doubler phase needs a scoring colour";
            const Row& row = s.rows[static_cast<std::size_t>(s.scoring_colour)];
            if (row.angel_sum() <= row.devil_sum()) return "doubler phase on a colour that is not positive (S5.3)";
            if (s.doubler_available == 0 || (s.decided & ~s.doubler_available) || (s.bets & ~s.decided) ||
                s.decided == s.doubler_available) {
                return "inconsistent doubler decisions";
            }
            if (s.revealed_colours >> s.scoring_colour) return "a colour after the scoring colour is revealed";
            break;
        }
        case Phase::GameOver:
            if (s.current_player != kTerminal) return "game over needs current_player TERMINAL";
            if (s.round != c.rounds - 1) return "game over before the last round";
            if (s.decided || s.bets || s.scoring_colour != -1) return "game over with scoring data";
            break;
        default: return "unknown phase";
    }
    return {};
}

// ---- the record --------------------------------------------------------------------------------

State State::start(const Game& game, uint64_t seed, std::vector<std::vector<Card>> decks) {
    if (decks.size() > game.rounds) {
        throw StateFormatError("given " + std::to_string(decks.size()) + " deals for a game of " +
                               std::to_string(game.rounds) + " rounds (S2.4)");
    }
    for (const auto& deck : decks) {
        if (!deck.empty()) check_deck(game, deck);
    }
    State t;
    const bool first_given = !decks.empty() && !decks[0].empty();
    t.position = new_game(game, seed, first_given ? &decks[0] : nullptr);
    t.decks = std::move(decks);
    return t;
}

void State::apply(const Move& move, std::optional<int> player) {
    const int seat = acting_player(position, player);
    const int round = position.round;
    check_move(position, move, seat);
    history.push_back(Step{seat, move});
    keep_position_before_move(*this);
    apply_unchecked(position, move, seat);
    for (std::size_t p = 0; p < rewards.size(); ++p) rewards[p] = position.scores[p] - before->scores[p];
    const auto r = static_cast<std::size_t>(position.round);
    if (position.round != round && r < decks.size() && !decks[r].empty()) redeal(position, decks[r]);
}

Events State::last_events() const {
    return replay_last_move(*this, [this](Position& s, const Move& move, int player, EventLog& log) {
        const int round = s.round;
        play(s, move, player, &log);
        const auto r = static_cast<std::size_t>(s.round);
        if (s.round != round && r < decks.size() && !decks[r].empty()) {  // S2.4: the given deal, not the shuffle
            log.truncate(log.last_of("round_started"));
            replace_deal(s, decks[r], &log);
        }
    });
}

int64_t Rules::max_game_length(const Game& game) noexcept {
    // Every move places or discards a card of the round's deck, or is a doubler decision:
    // at most one per seat and colour (S5.3).
    return int64_t{game.rounds} * (game.deck_size() + kColours * game.players);
}

int64_t Rules::min_utility(const Game& game) noexcept { return int64_t{game.rounds} * kMinRoundScore; }

int64_t Rules::max_utility(const Game& game) noexcept { return int64_t{game.rounds} * kMaxRoundScore; }

std::string State::check() const {
    std::string problem = check_invariants(position);
    if (!problem.empty()) return problem;
    for (const Step& step : history) {
        if (step.player < 0 || step.player >= position.players()) return "history names a seat that does not exist";
    }
    // The decisions taken on the colour being scored are the last steps (S5.3).
    const auto pending = static_cast<std::size_t>(popcount64(position.decided));
    if (history.size() < pending) return "history lacks the doubler decisions already taken";
    for (std::size_t i = history.size() - pending; i < history.size(); ++i) {
        const Step& step = history[i];
        const bool bet = step.move.kind == MoveKind::Bet;
        if ((!bet && step.move.kind != MoveKind::Hold) || !((position.decided >> step.player) & 1u) ||
            bet != (((position.bets >> step.player) & 1u) != 0)) {
            return "history does not end with the doubler decisions taken";
        }
    }
    if (decks.size() > position.game.rounds) return "more given deals than rounds";
    return {};
}

void State::recall_turns() noexcept {
    Position& s = position;
    s.turns = {};
    s.turn_count = 0;
    const int played = s.cards_played();
    int found = 0;
    auto step = history.rbegin();
    for (; step != history.rend() && found < played; ++step) {  // the decisions of this round's scoring come last
        if (step->move.kind == MoveKind::Place || step->move.kind == MoveKind::Discard) ++found;
    }
    if (found < played) return;
    for (auto it = step.base(); it != history.end(); ++it) {
        if (it->move.kind == MoveKind::Place || it->move.kind == MoveKind::Discard)
            s.turns[s.turn_count++] = Turn{static_cast<uint8_t>(it->player), static_cast<uint8_t>(it->move.action())};
    }
    if (!check_turns(s).empty()) s.turns = {}, s.turn_count = 0;
}

State State::resample(int player, uint64_t seed) const {
    State t;
    t.position = Rules::resample(position, player, seed);
    t.history = history;
    if (position.phase == Phase::Doubler) {
        // The last popcount(decided) steps are the decisions on the colour being scored:
        // only the player's own stays (S5.3, S7.1).
        const auto pending = std::min(history.size(), static_cast<std::size_t>(popcount64(position.decided)));
        t.history.resize(history.size() - pending);
        for (std::size_t i = history.size() - pending; i < history.size(); ++i) {
            if (history[i].player == player) t.history.push_back(history[i]);
        }
    }
    return t;
}

}  // namespace diabolo::schacht
