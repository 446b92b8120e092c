//! Gems case families, aimed at the typical wrong solutions: no bonus turn (S = 1 makes every
//! pour a bonus), one stone per colour per pour (single-colour bags), leftovers that decide
//! (large S), stopping at a case with B = 0, 8-bit scores (the most gems), and no memo
//! (maximal files).

use super::Gems;
use crate::problem::contract::{Family, Spec};
use crate::problem::generate::SizeProfile;
use crate::problem::params::SizeRange;
use crate::random::Rng;

const CHAINS: Family = Family::new(
    "chains",
    "S at its smallest (1 by default): every pour makes stones, long chains of bonus turns",
);
const ONE_COLOUR: Family = Family::new(
    "one-colour",
    "every bag of a single colour, often several stones in one pour",
);
const SMALL_S: Family = Family::new(
    "small-s",
    "S of 2 or 3 with few colours: stones in many pours",
);
const LARGE_S: Family = Family::new(
    "large-s",
    "S near its largest with few colours: leftovers carried from pour to pour decide",
);
const EMPTY_CASE: Family = Family::new(
    "empty-case",
    "a case with B = 0 before the last case of the file",
);
const MOST_GEMS: Family = Family::new(
    "most-gems",
    "the most bags, full bags, one colour and S = 1: the largest answers (8-bit scores \
            overflow)",
);
const MAX_FILE: Family = Family::new(
    "max-size",
    "as many cases as --cases allows, each with G, B and n at their largest",
);

/// The gems families, in the order `mixed` draws from (part of the output format).
pub(super) const FAMILIES: &[Family] = &[
    Family::UNIFORM,
    CHAINS,
    ONE_COLOUR,
    SMALL_S,
    LARGE_S,
    EMPTY_CASE,
    MOST_GEMS,
    MAX_FILE,
];

/// A whole file: its case count, then its cases. The draw order is part of the format.
pub(super) fn file(rng: &mut Rng, family: &Family, profile: SizeProfile, spec: &Spec) -> Vec<Gems> {
    let cases = spec.range("cases");
    let count = match *family {
        MAX_FILE => cases.hi,
        // Room for a case after the empty one.
        EMPTY_CASE => profile.sample(rng, cases).max(2.min(cases.hi)),
        _ => profile.sample(rng, cases),
    };
    let empty_at = (*family == EMPTY_CASE && count >= 2).then(|| rng.range_size(0, count - 2));
    (0..count)
        .map(|k| {
            let mut case = case(rng, family, profile, spec);
            if empty_at == Some(k) || (*family == EMPTY_CASE && count == 1) {
                case.bags.clear();
            }
            case
        })
        .collect()
}

/// One case of `family`: G, B, S, then each bag's size and colours.
pub(super) fn case(rng: &mut Rng, family: &Family, profile: SizeProfile, spec: &Spec) -> Gems {
    let (g, b, s, n) = (
        spec.range("g"),
        spec.range("b"),
        spec.range("s"),
        spec.range("n"),
    );
    let (colours, bags, stones) = match *family {
        MAX_FILE => (g.hi, b.hi, profile.sample(rng, s)),
        MOST_GEMS => (g.lo, b.hi, s.lo),
        CHAINS => (profile.sample(rng, g), profile.sample(rng, b), s.lo),
        SMALL_S => (
            few(rng, g),
            profile.sample(rng, b),
            rng.range_size(s.lo.max(2).min(s.hi), s.hi.min(3).max(s.lo)),
        ),
        LARGE_S => (
            few(rng, g),
            profile.sample(rng, b),
            rng.range_size(s.hi.saturating_sub(5).max(s.lo), s.hi),
        ),
        _ => (
            profile.sample(rng, g),
            profile.sample(rng, b),
            profile.sample(rng, s),
        ),
    };
    let full = matches!(*family, MAX_FILE | MOST_GEMS);
    let bags = (0..bags)
        .map(|_| {
            let size = if full { n.hi } else { profile.sample(rng, n) };
            if *family == ONE_COLOUR {
                let colour = rng.range_size(1, colours);
                vec![colour; size]
            } else {
                (0..size).map(|_| rng.range_size(1, colours)).collect()
            }
        })
        .collect();
    Gems {
        g: colours,
        s: stones,
        bags,
    }
}

/// One to three colours, within the range.
fn few(rng: &mut Rng, g: SizeRange) -> usize {
    rng.range_size(g.lo, g.hi.min(g.lo + 2))
}
