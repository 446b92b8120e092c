//! Smaller gems cases for minimization, most drastic first: no bags, chunks of bags, single
//! bags, then single gems, then fewer colours (one merged into another, or dropped with its
//! gems, or G lowered to the largest colour used). Values are bisected by the minimizer: S
//! (as S − 1, so that every value down to 0 is a valid case) and each gem's colour (as its
//! colour − 1: lowering one merges it into a smaller colour).

use super::Gems;
use crate::problem::shrink::chunks;

/// How many passes [`pass`] has.
pub(super) const PASSES: usize = 3;

/// The candidates of one pass for `c`.
pub(super) fn pass(c: &Gems, pass: usize) -> Vec<Gems> {
    let mut out = match pass {
        0 => fewer_bags(c),
        1 => fewer_gems(c),
        2 => fewer_colours(c),
        _ => Vec::new(),
    };
    out.retain(|x| x != c);
    out
}

fn without_bags(c: &Gems, drop: &[usize]) -> Gems {
    Gems {
        bags: c
            .bags
            .iter()
            .enumerate()
            .filter(|(i, _)| !drop.contains(i))
            .map(|(_, b)| b.clone())
            .collect(),
        ..c.clone()
    }
}

/// No bag at all, then chunks of bags, then each bag alone dropped.
fn fewer_bags(c: &Gems) -> Vec<Gems> {
    let len = c.bags.len();
    if len == 0 {
        return Vec::new();
    }
    let mut out = vec![without_bags(c, &(0..len).collect::<Vec<_>>())];
    out.extend(chunks(len).iter().map(|chunk| without_bags(c, chunk)));
    out.extend((0..len).map(|i| without_bags(c, &[i])));
    out
}

/// Each gem dropped from a bag that keeps at least one.
fn fewer_gems(c: &Gems) -> Vec<Gems> {
    let mut out = Vec::new();
    for (i, bag) in c.bags.iter().enumerate() {
        if bag.len() < 2 {
            continue;
        }
        for k in 0..bag.len() {
            let mut next = c.clone();
            next.bags[i].remove(k);
            out.push(next);
        }
    }
    out
}

/// G lowered to the largest colour used; each colour merged into colour 1; each colour
/// dropped with its gems (bags left empty go too).
fn fewer_colours(c: &Gems) -> Vec<Gems> {
    let mut out = Vec::new();
    let used = c.bags.iter().flatten().copied().max().unwrap_or(1);
    if used < c.g {
        out.push(Gems {
            g: used,
            ..c.clone()
        });
    }
    if c.g > 1 {
        for colour in 2..=c.g {
            out.push(recoloured(c, colour, Some(1)));
        }
        for colour in 1..=c.g {
            out.push(recoloured(c, colour, None));
        }
    }
    out
}

/// `c` with colour `from` turned into `into`, or removed with `None`; the colours above
/// `from` move down one, so that G shrinks by one.
fn recoloured(c: &Gems, from: usize, into: Option<usize>) -> Gems {
    let shift = |colour: usize| if colour > from { colour - 1 } else { colour };
    let bags = c
        .bags
        .iter()
        .map(|bag| {
            bag.iter()
                .filter_map(|&colour| match (colour == from, into) {
                    (true, Some(to)) => Some(shift(to)),
                    (true, None) => None,
                    (false, _) => Some(shift(colour)),
                })
                .collect::<Vec<_>>()
        })
        .filter(|bag| !bag.is_empty())
        .collect();
    Gems {
        g: c.g - 1,
        s: c.s,
        bags,
    }
}

/// S, then each gem's colour, bag by bag.
pub(super) fn slots(c: &Gems) -> usize {
    1 + c.gem_count()
}

/// The bag and position of gem slot `slot` (≥ 1).
fn gem_at(c: &Gems, slot: usize) -> Option<(usize, usize)> {
    let mut k = slot.checked_sub(1)?;
    for (i, bag) in c.bags.iter().enumerate() {
        if k < bag.len() {
            return Some((i, k));
        }
        k -= bag.len();
    }
    None
}

pub(super) fn value(c: &Gems, slot: usize) -> i64 {
    if slot == 0 {
        return c.s as i64 - 1;
    }
    gem_at(c, slot).map_or(0, |(i, k)| c.bags[i][k] as i64 - 1)
}

pub(super) fn with_value(c: &Gems, slot: usize, v: i64) -> Gems {
    let mut next = c.clone();
    let v = v.max(0) as usize;
    if slot == 0 {
        next.s = v + 1;
    } else if let Some((i, k)) = gem_at(c, slot) {
        next.bags[i][k] = (v + 1).min(c.g);
    }
    next
}
