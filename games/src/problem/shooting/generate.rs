//! Shooting case families: unimodal boards of every shape the wrong solutions trip on, and
//! files holding as many cases as allowed.

use super::Shooting;
use crate::problem::contract::{Family, Spec};
use crate::problem::generate::SizeProfile;
use crate::problem::params::SizeRange;
use crate::random::Rng;

const WIDE: Family = Family::new("wide", "as many columns as allowed (6), unimodal heights");
const TOWERS: Family = Family::new(
    "towers",
    "one or two columns of the largest height over low ones",
);
const NEAR_RECTANGLE: Family = Family::new(
    "near-rectangle",
    "equal heights but one column: one higher anywhere, or one lower at an end",
);
const SMALLEST: Family = Family::new(
    "smallest",
    "the smallest boards: 2 or 3 columns of height 1 or 2",
);
const FULL_FILE: Family = Family::new(
    "full-file",
    "as many cases as allowed (25), each of another family",
);

/// The shooting families, in the order `mixed` draws from (part of the output format).
pub(super) const FAMILIES: &[Family] = &[
    Family::UNIFORM,
    WIDE,
    TOWERS,
    NEAR_RECTANGLE,
    SMALLEST,
    FULL_FILE,
];

/// A file's cases: `full-file` holds the most the `--cases` range allows, each case of a
/// family drawn for it; the other families draw the count with the profile.
pub(super) fn generate_file(
    rng: &mut Rng,
    family: &Family,
    profile: SizeProfile,
    spec: &Spec,
) -> Vec<Shooting> {
    let cases = spec.range("cases");
    if *family == FULL_FILE {
        let others = &FAMILIES[..FAMILIES.len() - 1];
        return (0..cases.hi)
            .map(|_| {
                let family = *rng.pick(others).unwrap_or(&Family::UNIFORM);
                generate(rng, &family, SizeProfile::Uniform, spec)
            })
            .collect();
    }
    let count = profile.sample(rng, cases);
    (0..count)
        .map(|_| generate(rng, family, profile, spec))
        .collect()
}

/// One case of `family`. The draw order (columns, then the family's heights, then where
/// they go) is part of the output format: changing it changes every golden hash.
pub(super) fn generate(
    rng: &mut Rng,
    family: &Family,
    profile: SizeProfile,
    spec: &Spec,
) -> Shooting {
    let columns = spec.range("n");
    let top = spec.value("max-height") as usize;
    let heights = match *family {
        WIDE => {
            let values = draws(rng, columns.hi, top);
            arrange(rng, values)
        }
        TOWERS => {
            let n = profile.sample(rng, columns);
            towers(rng, n, top)
        }
        NEAR_RECTANGLE => {
            let n = profile.sample(rng, columns);
            near_rectangle(rng, n, top)
        }
        SMALLEST => {
            let small = SizeRange {
                lo: columns.lo,
                hi: columns.hi.min(columns.lo + 1),
            };
            let n = rng.range_size(small.lo, small.hi);
            let values = draws(rng, n, 2);
            arrange(rng, values)
        }
        _ => {
            let n = profile.sample(rng, columns);
            let cap = profile.sample(rng, SizeRange { lo: 2, hi: top });
            let values = draws(rng, n, cap);
            arrange(rng, values)
        }
    };
    Shooting::new(not_rectangle(heights))
}

/// `n` heights uniform in 1..=top.
fn draws(rng: &mut Rng, n: usize, top: usize) -> Vec<usize> {
    (0..n).map(|_| rng.range_size(1, top)).collect()
}

/// The heights in a unimodal order: the largest at the peak, each other one on the left
/// (rising) or the right (falling) by a coin.
fn arrange(rng: &mut Rng, mut values: Vec<usize>) -> Vec<usize> {
    values.sort_unstable();
    let Some(peak) = values.pop() else {
        return values;
    };
    let (mut left, mut right) = (Vec::new(), Vec::new());
    for v in values {
        if rng.chance(1, 2) {
            left.push(v);
        } else {
            right.push(v);
        }
    }
    left.push(peak);
    left.extend(right.into_iter().rev());
    left
}

/// One column of height `top` (two side by side, one time in three, when there is room)
/// among columns of at most a third of it.
fn towers(rng: &mut Rng, n: usize, top: usize) -> Vec<usize> {
    let tall = if n >= 3 && rng.chance(1, 3) { 2 } else { 1 };
    let mut values = draws(rng, n - tall.min(n), (top / 3).max(1));
    values.extend(std::iter::repeat_n(top, tall.min(n)));
    arrange(rng, values)
}

/// `n` columns of one height, one of them one higher (anywhere) or one lower (at an end).
fn near_rectangle(rng: &mut Rng, n: usize, top: usize) -> Vec<usize> {
    let h = rng.range_size(1, top);
    let mut heights = vec![h; n];
    if h < top && (h == 1 || rng.chance(1, 2)) {
        let j = rng.range_size(0, n - 1);
        heights[j] += 1;
    } else {
        let j = if rng.chance(1, 2) { 0 } else { n - 1 };
        heights[j] -= 1;
    }
    heights
}

/// Equal heights made valid: the first column one lower (or, when they are all 1, 2).
fn not_rectangle(mut heights: Vec<usize>) -> Vec<usize> {
    if heights.len() >= 2 && heights.iter().all(|&h| h == heights[0]) {
        heights[0] = if heights[0] > 1 { heights[0] - 1 } else { 2 };
    }
    heights
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::problem::shooting::unimodal_violation;

    #[test]
    fn arranged_heights_rise_then_fall() {
        let mut rng = Rng::from_seed(5);
        for _ in 0..200 {
            let values = draws(&mut rng, 6, 6);
            let heights = arrange(&mut rng, values);
            assert_eq!(unimodal_violation(&heights), None, "{heights:?}");
        }
    }

    #[test]
    fn near_rectangles_are_one_column_off() {
        let mut rng = Rng::from_seed(9);
        for _ in 0..200 {
            let heights = not_rectangle(near_rectangle(&mut rng, 4, 6));
            let mut sorted = heights.clone();
            sorted.sort_unstable();
            sorted.dedup();
            assert_eq!(sorted.len(), 2, "{heights:?}");
            assert_eq!(sorted[1] - sorted[0], 1, "{heights:?}");
            assert_eq!(unimodal_violation(&heights), None, "{heights:?}");
        }
    }
}
