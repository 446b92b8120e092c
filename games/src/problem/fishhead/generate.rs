//! Fishhead case families: how many edges are left, which edges are given, in which order,
//! and which way round their points are written.

use super::lattice::{self, EDGES};
use super::{Fishhead, Player};
use crate::problem::contract::{Family, Spec};
use crate::problem::generate::SizeProfile;
use crate::random::Rng;

const THREE_SIDED: Family = Family::new(
    "three-sided",
    "several squares with three sides drawn (where a bonus move would matter)",
);
const DOUBLE_CLOSE: Family = Family::new(
    "double-close",
    "an inner edge that completes two squares at once, open or given",
);
const SCORED_PREFIX: Family = Family::new(
    "scored-prefix",
    "given edges that already completed squares, unevenly between the players",
);
const FINISHED: Family = Family::new(
    "finished",
    "no edge left (n = 24): the given edges alone decide",
);
const FORCED: Family = Family::new("forced", "one edge left (n = 23): Jerry's forced move");
const MOST_LEFT: Family = Family::new("max-size", "n = 12: the most edges left to play");
const REVERSED: Family = Family::new("reversed", "every edge written with the larger point first");

/// The fishhead families, in the order `mixed` draws from (part of the output format).
pub(super) const FAMILIES: &[Family] = &[
    Family::UNIFORM,
    THREE_SIDED,
    DOUBLE_CLOSE,
    SCORED_PREFIX,
    FINISHED,
    FORCED,
    MOST_LEFT,
    REVERSED,
];

/// Random prefixes a family that looks for a property draws, keeping the best.
const TRIES: usize = 24;

/// One case of `family`. The draw order (the number of edges left, the edges in order, then
/// one coin per edge for the order of its points) is part of the output format: changing it
/// changes every golden hash.
pub(super) fn generate(
    rng: &mut Rng,
    family: &Family,
    profile: SizeProfile,
    spec: &Spec,
) -> Fishhead {
    let range = spec.range("remaining");
    let left = match *family {
        FINISHED => range.lo,
        FORCED => 1.clamp(range.lo, range.hi),
        MOST_LEFT => range.hi,
        _ => profile.sample(rng, range),
    };
    let n = EDGES - left.min(EDGES);
    let order = match *family {
        THREE_SIDED => best_of(rng, n, |order| lattice::three_sided(mask(order))),
        SCORED_PREFIX => best_of(rng, n, scored_squares),
        DOUBLE_CLOSE => double_close(rng, n),
        _ => random_prefix(rng, n),
    };
    let edges = order
        .into_iter()
        .map(|e| {
            let (a, b) = lattice::endpoints(e);
            if *family == REVERSED || rng.chance(1, 2) {
                (b, a)
            } else {
                (a, b)
            }
        })
        .collect();
    Fishhead { edges }
}

fn mask(order: &[usize]) -> u32 {
    order.iter().fold(0, |m, &e| m | (1 << e))
}

/// `n` distinct edges in a random order.
fn random_prefix(rng: &mut Rng, n: usize) -> Vec<usize> {
    let mut all: Vec<usize> = (0..EDGES).collect();
    rng.shuffle(&mut all);
    all.truncate(n);
    all
}

/// The random prefix of `n` edges with the largest `key` among [`TRIES`] (the first on ties).
fn best_of<K: Ord>(rng: &mut Rng, n: usize, key: impl Fn(&[usize]) -> K) -> Vec<usize> {
    let mut best = random_prefix(rng, n);
    let mut best_key = key(&best);
    for _ in 1..TRIES {
        let order = random_prefix(rng, n);
        let k = key(&order);
        if k > best_key {
            best = order;
            best_key = k;
        }
    }
    best
}

/// The squares the prefix completes, then how unevenly they went to Tom and Jerry.
fn scored_squares(order: &[usize]) -> (usize, u32) {
    let mut drawn = 0u32;
    let (mut tom, mut jerry) = (0i32, 0i32);
    for (i, &e) in order.iter().enumerate() {
        let gain = i32::from(lattice::gain(drawn, e));
        match Player::drawing(i + 1) {
            Player::Tom => tom += gain,
            Player::Jerry => jerry += gain,
        }
        drawn |= 1 << e;
    }
    ((tom + jerry) as usize, tom.abs_diff(jerry))
}

/// A prefix of `n` edges holding the six outer sides of two squares that share an inner
/// edge; the shared edge stays open (when an edge is left and a coin says so) or is given
/// after all six, completing both squares at once.
fn double_close(rng: &mut Rng, n: usize) -> Vec<usize> {
    let inner: Vec<usize> = (0..EDGES)
        .filter(|&e| lattice::squares_of(e).count() == 2)
        .collect();
    let shared = *rng.pick(&inner).unwrap_or(&0);
    let pair = lattice::squares_of(shared).fold(0u32, |m, s| m | lattice::square_mask(s));
    let sides = pair & !(1 << shared);
    if n < sides.count_ones() as usize {
        return random_prefix(rng, n);
    }
    let open = n == sides.count_ones() as usize || (n < EDGES && rng.chance(1, 2));
    let mut others: Vec<usize> = (0..EDGES).filter(|&e| pair & (1 << e) == 0).collect();
    rng.shuffle(&mut others);
    let wanted = n - sides.count_ones() as usize - usize::from(!open);
    let mut order: Vec<usize> = (0..EDGES).filter(|&e| sides & (1 << e) != 0).collect();
    order.extend_from_slice(&others[..wanted]);
    rng.shuffle(&mut order);
    if !open {
        let last_side = order
            .iter()
            .rposition(|&e| sides & (1 << e) != 0)
            .unwrap_or(0);
        let at = rng.range_size(last_side + 1, order.len());
        order.insert(at, shared);
    }
    order
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::problem::contract::Instance;
    use crate::problem::fishhead::FISHHEAD;
    use crate::problem::fishhead::lattice::SQUARES;
    use crate::problem::params::{GenParams, ParamValue, SizeRange};

    fn cases(family: &str, seeds: u64) -> Vec<Fishhead> {
        let params = GenParams::default()
            .with_family(family)
            .with("cases", ParamValue::Range(SizeRange { lo: 3, hi: 3 }));
        let spec = Spec::new(&FISHHEAD, &params).unwrap();
        (0..seeds)
            .flat_map(|seed| {
                let file: Box<dyn Instance> = spec.generate(seed);
                file.cases_of::<super::super::FishheadProblem>()
                    .unwrap()
                    .to_vec()
            })
            .collect()
    }

    #[test]
    fn families_keep_their_promises() {
        for c in cases("finished", 20) {
            assert_eq!(c.n(), 24);
        }
        for c in cases("forced", 20) {
            assert_eq!(c.n(), 23);
        }
        for c in cases("max-size", 20) {
            assert_eq!(c.n(), 12);
        }
        for c in cases("reversed", 20) {
            assert!(c.edges.iter().all(|&(a, b)| a > b));
        }
        let three: Vec<usize> = cases("three-sided", 40)
            .iter()
            .filter(|c| c.remaining() >= 4)
            .map(|c| lattice::three_sided(c.replay().unwrap().0))
            .collect();
        assert!(
            three.iter().filter(|&&k| k >= 2).count() * 4 >= three.len() * 3,
            "{three:?}"
        );
        for c in cases("double-close", 40) {
            let (drawn, strokes) = c.replay().unwrap();
            let open_double =
                (0..EDGES).any(|e| drawn & (1 << e) == 0 && lattice::gain(drawn, e) == 2);
            let given_double = strokes.iter().any(|s| s.closed.len() == 2);
            assert!(open_double || given_double, "{c:?}");
        }
        let scored: Vec<usize> = cases("scored-prefix", 40)
            .iter()
            .map(|c| lattice::complete_squares(c.replay().unwrap().0).count())
            .collect();
        assert!(
            scored.iter().sum::<usize>() >= scored.len() * 2,
            "{scored:?}"
        );
        assert!(scored.iter().all(|&k| k <= SQUARES));
    }

    #[test]
    fn both_parities_and_both_point_orders_come_up() {
        let all = cases("uniform", 40);
        assert!(
            all.iter().any(|c| c.n().is_multiple_of(2))
                && all.iter().any(|c| !c.n().is_multiple_of(2))
        );
        let edges = all.iter().flat_map(|c| c.edges.iter());
        let reversed = edges.clone().filter(|&&(a, b)| a > b).count();
        assert!(reversed > 0 && reversed < edges.count());
    }
}
