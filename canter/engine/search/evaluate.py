"""Static evaluation: how good a quiet position is for each seat, in centipawn-like units
(a Man is 100). The searcher asks for the score of one seat against the others.

Terms, per seat: material (Men, Knights); the race to the target castle (every piece's
distance, and a larger bonus for the fastest pieces, as many as a win needs); castle defence
(own pieces guarding the approach while enemy pieces are near); cohesion (pieces with a
friendly neighbour are harder to jump); for the seat to move, pieces that can be jumped next
turn. Endgame knowledge (games with a material draw): a side reduced to two pieces wins only
by a castle entry with both or by taking the last enemy piece, so its material edge counts
for little. In endings of two seats, the pair race (race.py): how many moves sooner a side's
fastest pair of pieces, leapfrogging, finishes the castle race (on in Camelot and Chivalry).
Three seats, off: a lone runner, a fastest piece that no defender stands as near its target
castle as it is.

Two more terms are off by default, for the tuner to weigh: pieces no jump can take where they
stand (defended), and the pieces of the seat to move that an opponent's longest jump chain
would take (chain). `Evaluator.terms` writes a two-sided score as counts times weights, the
linear form bench/texel_tune.py fits to game results.
"""

from __future__ import annotations

from dataclasses import dataclass, fields
from dataclasses import replace as _replace

from canter.engine.rules.movegen import generate, must_capture
from canter.engine.rules.position import Position
from canter.engine.rules.variant import Variant
from canter.engine.search.race import PairRace, race_table
from canter.engine.search.threats import Reach

RACE_PIECES = 10  # pieces on the board at most for the pair race to count (`race_pieces`)
RACE_HORIZON = 12  # moves: a race longer than this counts as this long
LONE_HORIZON = 6  # steps: a runner farther than this from its target castle is not scored


@dataclass(frozen=True)
class Weights:
    man: int = 100
    knight: int = 160
    advance: int = 3  # per step nearer the target castle, every piece
    race: tuple[int, ...] = (160, 90, 45, 25, 12, 6)  # fastest pieces, by distance
    defence: int = 14  # per guard (at most two) when an enemy piece is near the own castle
    cohesion: int = 3  # per piece with a friendly neighbour
    # Per cent of the most valuable piece that can be jumped next turn. Off: with 40 and
    # with 15 the searcher lost 39-61 to the build without it (docs/search.md).
    hanging: int = 0
    tempo: int = 8
    race_step: int = 0  # per step of the fastest piece (the race decides Tri-Camelot)
    versus_max: int = 0  # three seats: 1 = minus the strongest opponent, 0 = minus the mean
    # Three seats, both opponents in play: the opponents' part as per cents of each
    # one's material (Men, Knights) and of the rest of its score (position: race,
    # advance, defence, cohesion, tempo), the left seat being the one whose castle this
    # seat aims at and the right seat the one that aims at this seat's castle. 50 each is
    # the plain mean. In game records the left seat's material and the right seat's race
    # are what cost a seat its wins, and the right seat's material helps it (docs/search.md,
    # "Tri-Camelot: the seats and their neighbours"); a share may be below 0 or above 100.
    left_material: int = 50
    left_position: int = 50
    right_material: int = 50
    right_position: int = 50
    # A seat that can enter its target castle in 1 (2) moves counting canter chains
    # (threats.py; where two pieces must be in, the next entry). Three seats: any
    # opponent's entry ends the game for us, so the opponents' term is the largest of
    # theirs, not the mean. Two seats: off by default, for the strength test to judge
    # (own minus the opponent's). Both are linear terms of the tuner in every game but
    # team games.
    threat1: int = 0
    threat2: int = 0
    # Off by default, for the tuner to weigh (bench/texel_tune.py): per piece that no enemy
    # can ever jump where it stands (on every line a friend or the board's edge beside it),
    # and, for the seat to move, per own piece in the longest jump chain an opponent could
    # make next turn.
    defended: int = 0
    chain: int = 0
    # Two seats, in endings of at most RACE_PIECES pieces on the board: per move by which
    # the seat's fastest pair finishes the castle race before the opponent's, counting
    # leapfrogging pairs (race.py; each side's count capped at RACE_HORIZON moves). On in
    # Camelot and Chivalry (RACE_WEIGHTS), where the strength test kept it; unmeasured in
    # Cam and Camette.
    pair_race: int = 0
    # The pieces on the board, both sides', at most for the pair race to count: 10 of
    # Camelot's 28 and Chivalry's 40, where it was measured. Cam starts with 14 and Camette
    # with 8, so a test of the race there sets its own (EvalFile).
    race_pieces: int = RACE_PIECES
    # Three seats: per step inside LONE_HORIZON of a seat's fastest piece that is nearer
    # its target castle than every piece of the seat whose castle that is (no defender can
    # meet it on the way in). Own minus the largest opponent's, as for the entry reach:
    # any opponent's entry ends the game. Off: not a linear term of the tuner.
    lone_runner: int = 0


TRI_WEIGHTS = Weights(race_step=25, threat1=300, threat2=100)


DEFAULT_WEIGHTS = Weights()

# Camelot and Chivalry: the pair race of endings, kept by the strength test at 10+0.1
# (docs/search.md, "The pair race"). Cam and Camette have not been measured with it.
RACE_WEIGHTS = Weights(pair_race=80)
RACE_GAMES = ("camelot", "chivalry")


def weights_for(variant: Variant) -> Weights:
    # A team game is two sides taking turns (one entry wins, as in Cam): the two-seat
    # weights, with each side's terms summed over its partners.
    if variant.nseats > 2 and not variant.teams:
        return TRI_WEIGHTS
    return RACE_WEIGHTS if variant.name in RACE_GAMES else DEFAULT_WEIGHTS


def _distances(variant: Variant, sources: frozenset[int]) -> list[int]:
    """Steps from every cell to the nearest cell of `sources` (ignoring pieces)."""
    board = variant.board
    far = 99
    dist = [far] * board.size
    frontier = list(sources)
    for c in frontier:
        dist[c] = 0
    while frontier:
        nxt = []
        for c in frontier:
            for n in board.neighbours[c]:
                if dist[n] == far:
                    dist[n] = dist[c] + 1
                    nxt.append(n)
        frontier = nxt
    return dist


class Evaluator:
    """Tables for one variant and one set of weights."""

    def __init__(self, variant: Variant, weights: Weights | None = None) -> None:
        weights = weights or weights_for(variant)
        self.variant = variant
        self.w = weights
        n = variant.nseats
        board = variant.board
        self.mask = board.mask
        self.up = board.up_shifts
        self.down = board.down_shifts
        self.need = variant.target_pieces
        self.target_dist = [_distances(variant, variant.target_castle[s]) for s in range(n)]
        self.own_dist = [_distances(variant, variant.own_castle[s]) for s in range(n)]
        far = max(d for d in self.target_dist[0] if d < 99)
        self.far = far
        self.rings = []
        for s in range(n):
            dist = self.target_dist[s]
            rings = []
            for d in range(far + 1):
                ring = 0
                for c in variant.cells:
                    if dist[c] == d:
                        ring |= 1 << c
                rings.append(ring)
            self.rings.append(rings)
        race = list(weights.race) + [0] * (far + 2 - len(weights.race))
        self.race = race
        # The advance term by bit planes of (far - distance): a few masks, not one a ring.
        self.planes = []
        for s in range(n):
            dist = self.target_dist[s]
            planes = []
            for b in range(far.bit_length()):
                plane = 0
                for c in variant.cells:
                    if dist[c] <= far and (far - dist[c]) >> b & 1:
                        plane |= 1 << c
                planes.append((plane, (1 << b) * weights.advance))
            self.planes.append(planes)
        # The race looks for the nearest pieces only as far as a distance still scores.
        self.race_scan = far + 1 if weights.race_step else min(len(weights.race), far + 1)
        # Cells near each castle: guards within 2 steps, threats within 4.
        self.guard_zone = [self._zone(self.own_dist[s], 2) for s in range(n)]
        self.threat_zone = [self._zone(self.own_dist[s], 4) for s in range(n)]
        self.target_bits = variant.target_bits
        # (Two seats only when the weights use it: the reach costs time at every leaf.)
        self.reach = Reach(variant) if not variant.teams and (
            n > 2 or weights.threat1 or weights.threat2) else None
        self.two_threats = n == 2 and self.reach is not None
        # (Built by prepare() at the protocol's isready, or on the first ending it scores.)
        self.pair_races: list[PairRace] | None = None
        self.races = n == 2 and not variant.teams and weights.pair_race != 0
        self.partners = variant.partners
        # The seat whose castle each seat aims at (three seats: its left neighbour).
        self.left = [next((t for t in range(n) if variant.own_castle[t]
                           == variant.target_castle[s]), -1) for s in range(n)]
        self.right = [3 - s - self.left[s] for s in range(n)] if n == 3 else []
        self.lone = weights.lone_runner if n == 3 and not variant.teams else 0
        # Cells within k steps of each seat's own castle, k = 0 .. LONE_HORIZON.
        self.home_within = [[self._zone(self.own_dist[s], k) for k in range(LONE_HORIZON + 1)]
                            for s in range(n)] if self.lone else []
        self.shares = (weights.left_material, weights.left_position,
                       weights.right_material, weights.right_position)
        self.neighbour_shares = n == 3 and not variant.teams and self.shares != (50,) * 4
        self.teams = variant.is_team_game
        self.threat = (0, weights.threat1, weights.threat2, 0)
        self.reach_for_terms: Reach | None = None  # terms() counts the reach whatever weighs it
        # Two seats with a material draw: the piece count at or below which a lead is thin.
        self.thin = variant.win_min_pieces if n == 2 and variant.bare_max_pieces else 0

    def _zone(self, dist: list[int], radius: int) -> int:
        bits = 0
        for c in self.variant.cells:
            if dist[c] <= radius:
                bits |= 1 << c
        return bits

    # ---- per-seat terms ------------------------------------------------------------
    def seat_score(self, pos: Position, seat: int, allocc: int) -> int:
        w = self.w
        occ = pos.occ[seat]
        if not occ:
            return 0
        knights = pos.kn[seat].bit_count()
        count = occ.bit_count()
        score = knights * w.knight + (count - knights) * w.man
        # Masks instead of a loop over the pieces: bit planes of the advance, then rings
        # by distance to the target castle from the nearest out, until the race's pieces
        # are found.
        for plane, bonus in self.planes[seat]:
            score += (occ & plane).bit_count() * bonus
        best1 = best2 = 99
        need = self.need
        rings = self.rings[seat]
        for d in range(self.race_scan):
            here = occ & rings[d]
            if here:
                if best1 == 99:
                    best1 = d
                    if need == 1:
                        break
                    if here.bit_count() > 1:
                        best2 = d
                        break
                else:
                    best2 = d
                    break
        race = self.race
        if best1 < 99:
            score += race[best1] + (self.far - best1) * w.race_step
        if self.need > 1 and best2 < 99:
            score += race[best2]
        # Castle defence: guards count only while some enemy piece is near (a partner's
        # pieces are no threat).
        friends = occ
        if self.teams:
            for p in self.partners[seat]:
                friends |= pos.occ[p]
        if (allocc & ~friends) & self.threat_zone[seat]:
            guards = (occ & self.guard_zone[seat]).bit_count()
            score += min(guards, 2) * w.defence
        # Cohesion: pieces with at least one friendly neighbour.
        linked = 0
        for o in self.up:
            linked |= occ & ((occ << o) | (occ >> o))
        score += linked.bit_count() * w.cohesion
        if w.defended:
            score += self.defended(occ).bit_count() * w.defended
        return score

    def defended(self, occ: int) -> int:
        """The pieces of `occ` that no jump can take where they stand: on every line through
        one, a friend or the edge of the board lies beside it, so no enemy has both a cell to
        jump from and an empty cell to land on."""
        solid = occ | ~self.mask  # off-board counts as a friend: nobody lands there
        safe = occ
        for o in self.up:
            # The low `o` bits stand for cells before the board's start: off-board too.
            safe &= (solid >> o) | (solid << o) | ((1 << o) - 1)
        return safe

    def chain_loss(self, pos: Position, seat: int) -> int:
        """How many of the seat's pieces the longest jump chain of an opponent would take,
        were it that opponent's turn."""
        friends = set(self.partners[seat]) if self.teams else {seat}
        worst = 0
        for s in range(self.variant.nseats):
            if s in friends or not pos.occ[s] or s in pos.eliminated:
                continue
            if not must_capture(pos, s):
                continue  # no jump at all: the full move list is not needed
            for m in generate(pos, s):
                taken = (m.capture_bits & pos.occ[seat]).bit_count()
                if taken > worst:
                    worst = taken
        return worst

    def hanging_loss(self, pos: Position, seat: int, allocc: int) -> int:
        """What the seat to move can expect to lose to a jump next turn (its pieces with an
        enemy on one side and an empty cell on the other)."""
        hit = self.hanging(pos, seat, allocc)
        if not hit:
            return 0
        w = self.w
        value = w.knight if hit & pos.kn[seat] else w.man
        loss = value * w.hanging // 100
        if hit.bit_count() >= 2:
            loss += w.man * w.hanging // 100
        return loss

    def hanging(self, pos: Position, seat: int, allocc: int) -> int:
        """The seat's pieces with an enemy on one side and an empty cell on the other."""
        own = pos.occ[seat] & ~self.target_bits[seat]
        enemy = allocc & ~pos.occ[seat]
        for s in range(self.variant.nseats):
            if s != seat:
                enemy &= ~self.target_bits[s]  # a piece in its target castle never jumps
        empty = self.mask & ~allocc
        hit = 0
        for o in self.up:
            hit |= own & (((enemy << o) & (empty >> o)) | ((enemy >> o) & (empty << o)))
        return hit

    # ---- the score the searcher uses ----------------------------------------------
    def scores(self, pos: Position) -> list[int]:
        allocc = 0
        for bits in pos.occ:
            allocc |= bits
        out = [self.seat_score(pos, s, allocc) for s in range(self.variant.nseats)]
        mover = pos.turn
        out[mover] += self.w.tempo
        if self.w.hanging:
            out[mover] -= self.hanging_loss(pos, mover, allocc)
        if self.w.chain:
            out[mover] -= self.chain_loss(pos, mover) * self.w.chain
        return out

    def relative(self, pos: Position, seat: int) -> int:
        """Score for `seat`: its own minus the opponents' (two seats), its team's minus the
        other team's (team games), or minus the mean of the opponents still in play (three
        seats)."""
        sc = self.scores(pos)
        if self.teams:
            # Both partners' material and races against both opponents'.
            mine = self.partners[seat]
            diff = sum(sc[s] for s in range(len(sc)) if s in mine) - sum(
                sc[s] for s in range(len(sc)) if s not in mine)
        elif len(sc) == 2:
            diff = sc[seat] - sc[1 - seat]
            if self.two_threats:
                diff += self._threats(pos, seat)
            if self.races:
                # After the endgame's cut: a race is how a thin side wins.
                return self._endgame(pos, seat, diff) + self._race(pos, seat)
        else:
            diff = self._versus(sc, seat, pos)
            if self.w.threat1 or self.w.threat2:
                diff += self._threats(pos, seat)
            if self.lone:
                lone = self.lone_runners(pos)
                diff += lone[seat] - max(lone[s] for s in range(len(sc)) if s != seat)
        return self._endgame(pos, seat, diff)

    def _versus(self, sc: list[int], seat: int, pos: Position) -> int:
        """Three seats: the seat's score minus the mean of the opponents with pieces on
        the board (or, `versus_max`, minus the highest of them; or, with both opponents
        in play and the neighbour shares changed, their material and position weighed by
        those shares)."""
        others = [sc[s] for s in range(len(sc)) if s != seat and pos.occ[s]]
        if not others:
            return sc[seat]
        if self.w.versus_max:
            return sc[seat] - max(others)
        if len(others) == 2 and self.neighbour_shares:
            lm, lp, rm, rp = self.shares
            left, right = self.left[seat], self.right[seat]
            mat_l, mat_r = self.material(pos, left), self.material(pos, right)
            return sc[seat] - (lm * mat_l + lp * (sc[left] - mat_l)
                               + rm * mat_r + rp * (sc[right] - mat_r)) // 100
        return sc[seat] - sum(others) // len(others)

    def material(self, pos: Position, seat: int) -> int:
        """The seat's Men and Knights at their weights."""
        knights = pos.kn[seat].bit_count()
        return knights * self.w.knight + (pos.occ[seat].bit_count() - knights) * self.w.man

    def vector(self, pos: Position) -> list[int]:
        """Three seats: `relative(pos, s)` for every seat at once, for max-n's leaves
        (the seat scores and the castle reaches are counted once, not once a seat)."""
        sc = self.scores(pos)
        n = len(sc)
        occ = pos.occ
        t = None
        if self.w.threat1 or self.w.threat2:
            allocc = 0
            for bits in occ:
                allocc |= bits
            reach, threat = self.reach, self.threat
            t = [threat[reach.moves_to_target(occ, s, allocc, pos.kn)] if occ[s] else 0
                 for s in range(n)]
            live = [t[s] if occ[s] and s not in pos.eliminated else 0 for s in range(n)]
        lone = self.lone_runners(pos) if self.lone else None
        out = []
        for seat in range(n):
            diff = self._versus(sc, seat, pos)
            if t is not None:
                diff += t[seat] - max([0] + [live[s] for s in range(n) if s != seat])
            if lone is not None:
                diff += lone[seat] - max(lone[s] for s in range(n) if s != seat)
            out.append(self._endgame(pos, seat, diff))
        return out

    def _threats(self, pos: Position, seat: int) -> int:
        """Own castle-entry reach minus the nearest opponent's (whoever's castle it aims at:
        either entry ends the game)."""
        allocc = 0
        for bits in pos.occ:
            allocc |= bits
        reach = self.reach
        threat = self.threat
        mine = threat[reach.moves_to_target(pos.occ, seat, allocc, pos.kn)] if pos.occ[seat] else 0
        worst = 0
        for s in range(self.variant.nseats):
            if s != seat and pos.occ[s] and s not in pos.eliminated:
                t = threat[reach.moves_to_target(pos.occ, s, allocc, pos.kn)]
                if t > worst:
                    worst = t
        return mine - worst

    def lone_runners(self, pos: Position) -> list[int]:
        """Three seats: each seat's lone runner score, `lone_runner` per step inside
        LONE_HORIZON of its fastest piece when no piece of the seat it aims at stands as
        near that seat's castle (0 for a seat out of play or without such a runner)."""
        out = [0] * len(pos.occ)
        for s, occ in enumerate(pos.occ):
            if not occ or s in pos.eliminated:
                continue
            rings = self.rings[s]
            for d in range(1, LONE_HORIZON + 1):
                if occ & rings[d]:
                    break
            else:
                continue
            guard = self.left[s]
            if guard in pos.eliminated or not pos.occ[guard] & self.home_within[guard][d]:
                out[s] = self.lone * (LONE_HORIZON + 1 - d)
        return out

    def race_moves(self, pos: Position) -> tuple[int, ...] | None:
        """Each seat's pair race in moves (capped at RACE_HORIZON), or None where the board
        holds more than `race_pieces` pieces."""
        if pos.occ[0].bit_count() + pos.occ[1].bit_count() > self.w.race_pieces:
            return None
        races = self.pair_races
        if races is None:
            races = self.pair_races = [race_table(self.variant, s) for s in range(2)]
        out = []
        for s in range(2):
            bits = pos.occ[s]
            cells = []
            while bits:
                low = bits & -bits
                cells.append(low.bit_length() - 1)
                bits ^= low
            out.append(min(races[s].moves(cells), RACE_HORIZON))
        return tuple(out)

    def _race(self, pos: Position, seat: int) -> int:
        """How many moves sooner the seat's fastest pair finishes than the opponent's,
        times the weight (two seats, endings only)."""
        moves = self.race_moves(pos)
        if moves is None:
            return 0
        return (moves[1 - seat] - moves[seat]) * self.w.pair_race

    def _endgame(self, pos: Position, seat: int, diff: int) -> int:
        """Where few pieces cannot win (Camelot, Chivalry: two against one is not a win), a
        leader with at most `win_min_pieces` pieces gets a quarter of its edge (it needs
        them all in the castle, or the last enemy piece). Games without a material draw
        (Cam, Camette: one piece can still win) have no such cap."""
        thin = self.thin
        if not thin:
            return diff
        mine, theirs = pos.occ[seat].bit_count(), pos.occ[1 - seat].bit_count()
        if diff > 0 and mine <= thin or diff < 0 and theirs <= thin:
            return diff // 4
        return diff

    def prepare(self) -> None:
        """Build now what the first ending scored would build (the pair-race tables, a few
        hundredths of a second), so that no timed search pays for it."""
        if self.races and self.pair_races is None:
            self.pair_races = [race_table(self.variant, s) for s in range(2)]

    def explain(self, pos: Position) -> tuple[int, str]:
        v = self.variant
        sc = self.scores(pos)
        lines = []
        for s in range(v.nseats):
            occ = pos.occ[s]
            kn = pos.kn[s].bit_count()
            lines.append(f"{v.seats[s].name}: {occ.bit_count() - kn} men, {kn} knights, "
                         f"total {sc[s]}")
        score = self.relative(pos, pos.turn)
        lines.append(f"score for {v.seats[pos.turn].name}: {score} "
                     "(material, race, defence, cohesion, hanging pieces, tempo)")
        return score, "\n".join(lines)

    # ---- the score as a linear form, for tuning (bench/texel_tune.py) ---------------------
    def terms(self, pos: Position, seat: int) -> tuple[list[float], bool, bool]:
        """The score for `seat` as counts, one per name of TERM_NAMES, such that
        `linear_score(counts, term_weights(w), *cut)` is `relative(pos, seat)`: exactly in
        two-sided games (two seats, two teams), and to within the unit in three seats,
        where relative() floors the opponents' mean (exactly with `versus_max`). `cut`
        says whether each side is thin (the endgame quarter applies to a lead of that
        side, but not to the pair race);
        the hanging count uses the weights' own Man and Knight values, so it is linear in
        `hanging` alone. The pair race (two seats, endings) and the castle-entry reach
        (`threat1`, `threat2`; not in team games) are counted whatever their weights, so
        the tuner can weigh them."""
        v = self.variant
        allocc = 0
        for bits in pos.occ:
            allocc |= bits
        mine = self.partners[seat] if self.teams else (seat,)
        material: dict[int, float] = {}  # a seat's share of its Men and Knights, if apart
        if self.teams or v.nseats == 2:
            # Each side's counts whole: own (or the team's) minus the other's.
            share = {s: (1.0 if s in mine else -1.0) for s in range(v.nseats)}
        else:
            # Three seats: own minus the mean of the opponents with pieces on the board, or
            # (versus_max) minus the one whose score is highest under the weights in use.
            others = [s for s in range(v.nseats) if s != seat and pos.occ[s]]
            if others and self.w.versus_max:
                sc = self.scores(pos)
                others = [max(others, key=lambda s: sc[s])]
            share = {seat: 1.0, **{s: -1.0 / len(others) for s in others}}
            if len(others) == 2 and not self.w.versus_max and self.neighbour_shares:
                left, right = self.left[seat], self.right[seat]
                lm, lp, rm, rp = self.shares
                share[left], share[right] = -lp / 100, -rp / 100
                material = {left: -lm / 100, right: -rm / 100}
        total = [0.0] * len(TERM_NAMES)
        for s, sign in share.items():
            for i, x in enumerate(self._seat_terms(pos, s, allocc)):
                total[i] += material.get(s, sign) * x if i in (_MAN, _KNIGHT) else sign * x
        sign = share.get(pos.turn, 0.0)
        total[_TEMPO] += sign
        # hanging_loss is (value of what hangs) * hanging // 100: linear in hanging but for
        # the rounding.
        hit = self.hanging(pos, pos.turn, allocc)
        if hit:
            w = self.w
            value = w.knight if hit & pos.kn[pos.turn] else w.man
            value += w.man if hit.bit_count() >= 2 else 0
            total[_HANGING] -= sign * value / 100
        total[_CHAIN] -= sign * self.chain_loss(pos, pos.turn)
        if not self.teams:
            self._threat_terms(pos, seat, allocc, total)
        if not self.teams and v.nseats == 2:
            moves = self.race_moves(pos)
            if moves is not None:
                total[_PAIR_RACE] = moves[1 - seat] - moves[seat]
        if not self.thin:
            return total, False, False
        thin = self.thin
        return (total, pos.occ[seat].bit_count() <= thin,
                pos.occ[1 - seat].bit_count() <= thin)

    def _threat_terms(self, pos: Position, seat: int, allocc: int,
                      total: list[float]) -> None:
        """_threats as counts: the seat's own entry in one or two moves, minus that of the
        opponent whose entry weighs most under the weights in use (the nearest, as long
        as threat1 >= threat2 >= 0), unless that weight is below 0: _threats floors the
        opponents' part at 0 (an opponent's entry never raises the seat's score), and so do
        the counts."""
        reach = self.reach
        if reach is None:
            reach = self.reach_for_terms
            if reach is None:
                reach = self.reach_for_terms = Reach(self.variant)
        threat = self.threat
        if pos.occ[seat]:
            moves = reach.moves_to_target(pos.occ, seat, allocc, pos.kn)
            if moves in (1, 2):
                total[_THREAT1 + moves - 1] += 1
        worst = None
        for s in range(self.variant.nseats):
            if s != seat and pos.occ[s] and s not in pos.eliminated:
                moves = reach.moves_to_target(pos.occ, s, allocc, pos.kn)
                key = (threat[moves], moves in (1, 2), -moves)
                if worst is None or key > worst[0]:
                    worst = (key, moves)
        if worst is not None and worst[1] in (1, 2) and worst[0][0] >= 0:
            total[_THREAT1 + worst[1] - 1] -= 1

    def _seat_terms(self, pos: Position, seat: int, allocc: int) -> list[float]:
        """seat_score's counts (mirrors it term by term)."""
        out = [0.0] * len(TERM_NAMES)
        occ = pos.occ[seat]
        if not occ:
            return out
        knights = pos.kn[seat].bit_count()
        out[_MAN] = occ.bit_count() - knights
        out[_KNIGHT] = knights
        best1 = best2 = 99
        far = self.far
        for d, ring in enumerate(self.rings[seat]):
            k = (occ & ring).bit_count()
            if k:
                out[_ADVANCE] += k * (far - d)
                if best1 == 99:
                    best1 = d
                    if k > 1:
                        best2 = d
                elif best2 == 99:
                    best2 = d
        if best1 < 99:
            if best1 < RACE_TERMS:
                out[_RACE + best1] += 1
            out[_RACE_STEP] += far - best1
        if self.need > 1 and best2 < RACE_TERMS:
            out[_RACE + best2] += 1
        friends = occ
        if self.teams:
            for p in self.partners[seat]:
                friends |= pos.occ[p]
        if (allocc & ~friends) & self.threat_zone[seat]:
            out[_DEFENCE] = min((occ & self.guard_zone[seat]).bit_count(), 2)
        linked = 0
        for o in self.up:
            linked |= occ & ((occ << o) | (occ >> o))
        out[_COHESION] = linked.bit_count()
        out[_DEFENDED] = self.defended(occ).bit_count()
        return out


RACE_TERMS = len(Weights().race)
TERM_NAMES: tuple[str, ...] = (
    "man", "knight", "advance", *(f"race{d}" for d in range(RACE_TERMS)), "defence",
    "cohesion", "hanging", "tempo", "race_step", "defended", "chain", "threat1", "threat2",
    "pair_race")
_MAN, _KNIGHT, _ADVANCE, _RACE = 0, 1, 2, 3
(_DEFENCE, _COHESION, _HANGING, _TEMPO, _RACE_STEP, _DEFENDED,
 _CHAIN, _THREAT1, _THREAT2, _PAIR_RACE) = range(_RACE + RACE_TERMS, len(TERM_NAMES))


def term_weights(w: Weights) -> list[float]:
    """The weights in TERM_NAMES order (race distances past the tuple's end weigh 0)."""
    race = list(w.race[:RACE_TERMS]) + [0] * (RACE_TERMS - len(w.race))
    return [w.man, w.knight, w.advance, *race, w.defence, w.cohesion, w.hanging, w.tempo,
            w.race_step, w.defended, w.chain, w.threat1, w.threat2, w.pair_race]


def weights_from_terms(values: list[float], base: Weights = DEFAULT_WEIGHTS) -> Weights:
    """`base` with the tuned values, rounded to whole units."""
    r = [round(x) for x in values]
    return _replace(base, man=r[_MAN], knight=r[_KNIGHT], advance=r[_ADVANCE],
                    race=tuple(r[_RACE:_RACE + RACE_TERMS]), defence=r[_DEFENCE],
                    cohesion=r[_COHESION], hanging=r[_HANGING], tempo=r[_TEMPO],
                    race_step=r[_RACE_STEP], defended=r[_DEFENDED], chain=r[_CHAIN],
                    threat1=r[_THREAT1], threat2=r[_THREAT2], pair_race=r[_PAIR_RACE])


def linear_score(counts: list[float], weights: list[float], mine_thin: bool,
                 theirs_thin: bool) -> float:
    """relative() from terms(), before rounding: the sum, cut to a quarter as _endgame cuts
    a thin side's lead, and then the pair race, which is not cut."""
    diff = sum(c * w for c, w in zip(counts, weights, strict=True))
    race = counts[_PAIR_RACE] * weights[_PAIR_RACE]
    diff -= race
    if diff > 0 and mine_thin or diff < 0 and theirs_thin:
        return diff / 4 + race
    return diff + race


MAX_WEIGHT = 2000  # per weight (the searcher also caps static scores below won-game scores)


def weight_changes(data: object) -> dict[str, object]:
    """Check weights read from a JSON object (name -> whole number, `race` a list of them)
    and return them as changes for `Weights`; ValueError names the first bad entry."""
    if not isinstance(data, dict):
        raise ValueError("weights must be a JSON object of name: value")
    known = {f.name for f in fields(Weights)}
    out: dict[str, object] = {}
    for name, value in data.items():
        if name not in known:
            raise ValueError(f"unknown weight '{name}'")
        if name == "race":
            if (not isinstance(value, list) or not value
                    or not all(type(x) is int for x in value)):
                raise ValueError("weight 'race' takes a list of whole numbers")
            values = value
            out[name] = tuple(value)
        elif type(value) is not int:
            raise ValueError(f"weight '{name}' takes a whole number")
        else:
            values = [value]
            out[name] = value
        # A weight far beyond any tuned value is a mistake in the file (the searcher caps
        # static scores anyway, so that no weight can pose as a forced win).
        if any(abs(x) > MAX_WEIGHT for x in values):
            raise ValueError(f"weight '{name}' must be within ±{MAX_WEIGHT}")
    return out
