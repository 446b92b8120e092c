//! Perturbed choices, for a hunt: a recorded sequence with its sizes or one of its loops
//! pushed to an extreme, replayed through the generator. Seeds rarely make such cases (every
//! parent the vertex just before: a path; every value the largest), and the generator's
//! arguments may never make them, yet each is the generator's own output for some choices.

use super::{Capture, Choice, Recorded, Replayed};
use crate::judge::Runner;
use crate::random::Rng;
use crate::run::Limits;

/// How many choices a perturbed replay may draw: enough for a size pushed to a contest's
/// largest, few enough that a generator drawing for ever stops.
const LIMIT: usize = 1 << 22;

/// One change to a sequence.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
enum Push {
    /// The sizes (choices drawn once) at their largest.
    SizesLargest,
    /// Every draw of one place in a loop at its largest, or at its smallest.
    Largest,
    Smallest,
    /// Every draw of one place the same as its first.
    Same,
    /// The draws of one place in increasing order.
    Ascending,
}

impl Push {
    fn describe(self) -> &'static str {
        match self {
            Push::SizesLargest => "the sizes at their largest",
            Push::Largest => "a loop's draws at their largest",
            Push::Smallest => "a loop's draws at their smallest",
            Push::Same => "a loop's draws all alike",
            Push::Ascending => "a loop's draws in increasing order",
        }
    }
}

/// A perturbation of `recorded` (the generator's choices for `seed`) drawn from `rng`: one
/// or two pushes, each replayed before the next is drawn (a size pushed up lengthens the
/// loops a later push then fills). `None` when the generator made no case of them (it drew
/// for ever, or failed); else the case, its choices and what was pushed.
pub fn perturbed(
    capture: &Capture,
    runner: &dyn Runner,
    seed: u64,
    recorded: &Recorded,
    rng: &mut Rng,
    limits: &Limits,
) -> anyhow::Result<Option<(Recorded, String)>> {
    let mut current = recorded.clone();
    let mut said = Vec::new();
    for _ in 0..rng.range_size(1, 2) {
        let Some((values, push)) = pushed(&current.choices, rng) else {
            break;
        };
        match capture.replay(runner, seed, &values, LIMIT, limits)? {
            Replayed::Made(made) => current = made,
            Replayed::Overrun | Replayed::Failed(_) => return Ok(None),
        }
        said.push(push.describe());
    }
    Ok((!said.is_empty()).then(|| (current, said.join(", then "))))
}

/// The places of `choices`: per label, where it was drawn.
fn places(choices: &[Choice]) -> Vec<Vec<usize>> {
    let labels = choices
        .iter()
        .map(|c| c.label as usize + 1)
        .max()
        .unwrap_or(0);
    let mut at = vec![Vec::new(); labels];
    for (i, c) in choices.iter().enumerate() {
        at[c.label as usize].push(i);
    }
    at
}

/// The values of `choices` with one push drawn from `rng`, and which.
fn pushed(choices: &[Choice], rng: &mut Rng) -> Option<(Vec<u64>, Push)> {
    let places = places(choices);
    let sizes: Vec<usize> = places
        .iter()
        .filter(|p| p.len() == 1)
        .map(|p| p[0])
        .collect();
    let loops: Vec<&Vec<usize>> = places.iter().filter(|p| p.len() >= 2).collect();
    let mut pushes = Vec::new();
    if !sizes.is_empty() {
        pushes.push(Push::SizesLargest);
    }
    if !loops.is_empty() {
        pushes.extend([Push::Largest, Push::Smallest, Push::Same, Push::Ascending]);
    }
    let push = *rng.pick(&pushes)?;
    let mut values: Vec<u64> = choices.iter().map(|c| c.value).collect();
    let drawn = match push {
        Push::SizesLargest => sizes,
        _ => rng.pick(&loops)?.to_vec(),
    };
    for (at, value) in place_pushed(choices, &drawn, push) {
        values[at] = value;
    }
    Some((values, push))
}

/// The new values of the draws at `drawn` (one place's, in order) under `push`.
fn place_pushed(choices: &[Choice], drawn: &[usize], push: Push) -> Vec<(usize, u64)> {
    let first = choices[drawn[0]].value;
    let mut sorted: Vec<u64> = drawn.iter().map(|&at| choices[at].value).collect();
    sorted.sort_unstable();
    drawn
        .iter()
        .enumerate()
        .map(|(k, &at)| {
            let max = choices[at].max;
            let value = match push {
                Push::SizesLargest | Push::Largest => max,
                Push::Smallest => 0,
                Push::Same => first.min(max),
                Push::Ascending => sorted[k].min(max),
            };
            (at, value)
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn choice(label: u32, max: u64, value: u64) -> Choice {
        Choice { label, max, value }
    }

    #[test]
    fn parents_at_their_largest_are_a_path_and_sizes_go_to_their_largest() {
        // n = randint(2, 12) drawn 4, then parents randint(1, i - 1) for i = 2..=5.
        let mut c = vec![choice(0, 10, 3)];
        for i in 2..=5u64 {
            c.push(choice(1, i - 2, 0));
        }
        let path: Vec<u64> = place_pushed(&c, &[1, 2, 3, 4], Push::Largest)
            .into_iter()
            .map(|(_, v)| v)
            .collect();
        // Vertex i's parent i − 1.
        assert_eq!(path, [0, 1, 2, 3]);
        let mut rng = Rng::from_seed(1);
        let mut seen = std::collections::HashSet::new();
        for _ in 0..50 {
            let (values, push) = pushed(&c, &mut rng).unwrap();
            if push == Push::SizesLargest {
                assert_eq!(values[0], 10);
                assert_eq!(values[1..], [0, 0, 0, 0]);
            }
            seen.insert(push);
        }
        assert_eq!(seen.len(), 5, "{seen:?}");
    }
}
