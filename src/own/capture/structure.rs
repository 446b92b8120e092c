//! What a sequence of choices says of the generator's loops, read from the choices' labels
//! (where the generator drew) and maxima: the steps of each loop, and how its ranges move.
//!
//! A loop that draws at one line draws there once a step: the steps of a label are the
//! spans from one of its draws to the next (the last one as long as the step before it, when
//! the same labels follow). A loop whose draws' maxima grow by one a step picks among the
//! items made before (a parent among the earlier vertices); one whose maxima shrink by one is
//! a shuffle (Python's and testlib's draw from the end).

use std::ops::Range;

use super::Choice;

/// How a label's maxima move from one step to the next.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Trend {
    /// Each one more than the one before: the step picks among the earlier steps' items.
    Growing,
    /// Each one less: a shuffle.
    Shrinking,
    Other,
}

/// The draws of one label in a loop.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Loop {
    pub label: u32,
    /// One span a step, in order.
    pub steps: Vec<Range<usize>>,
    pub trend: Trend,
}

impl Loop {
    /// The step a size lowered by one most likely loses: the first of a shuffle (its draws
    /// run from the largest range down), else the last.
    pub fn dropped_step(&self) -> Range<usize> {
        self.dropped_steps(1)
    }

    /// The draws of the `k` steps a size lowered by `k` most likely loses, as one span.
    pub fn dropped_steps(&self, k: usize) -> Range<usize> {
        let n = self.steps.len();
        let k = k.clamp(1, n);
        match self.trend {
            Trend::Shrinking => self.steps[0].start..self.steps[k - 1].end,
            _ => self.steps[n - k].start..self.steps[n - 1].end,
        }
    }
}

/// The loops of `choices`: every label drawn at least twice, but one drawn inside another's
/// loop as often (the second line of a loop's body), in the order they start.
pub fn loops(choices: &[Choice]) -> Vec<Loop> {
    let labels = choices
        .iter()
        .map(|c| c.label)
        .max()
        .map_or(0, |l| l as usize + 1);
    let mut at: Vec<Vec<usize>> = vec![Vec::new(); labels];
    for (i, c) in choices.iter().enumerate() {
        at[c.label as usize].push(i);
    }
    let mut heads: Vec<u32> = (0..labels as u32)
        .filter(|&l| at[l as usize].len() >= 2)
        .collect();
    heads.sort_by_key(|&l| at[l as usize][0]);
    let mut out: Vec<Loop> = Vec::new();
    for label in heads {
        let places = &at[label as usize];
        let inner = out.iter().any(|outer| {
            let first = outer.steps[0].start;
            let last = outer.steps[outer.steps.len() - 1].end;
            first < places[0] && places[0] < last && outer.steps.len().abs_diff(places.len()) <= 1
        });
        if inner {
            continue;
        }
        out.push(Loop {
            label,
            steps: steps(choices, places),
            trend: trend(choices, places),
        });
    }
    out
}

/// The spans from each draw of a label to its next; the last as long as the one before
/// when the same labels follow it, else its draw alone.
fn steps(choices: &[Choice], places: &[usize]) -> Vec<Range<usize>> {
    let mut out: Vec<Range<usize>> = places.windows(2).map(|w| w[0]..w[1]).collect();
    let last = places[places.len() - 1];
    let before = &out[out.len() - 1];
    let end = last + before.len();
    let same = end <= choices.len()
        && choices[before.clone()]
            .iter()
            .zip(&choices[last..end])
            .all(|(a, b)| a.label == b.label);
    out.push(if same { last..end } else { last..last + 1 });
    out
}

fn trend(choices: &[Choice], places: &[usize]) -> Trend {
    let maxima: Vec<u64> = places.iter().map(|&i| choices[i].max).collect();
    if maxima.windows(2).all(|w| w[1] == w[0].wrapping_add(1)) {
        Trend::Growing
    } else if maxima.windows(2).all(|w| w[1].wrapping_add(1) == w[0]) {
        Trend::Shrinking
    } else {
        Trend::Other
    }
}

/// The values of a growing loop's later draws once its step `k` is gone: a value that named
/// an item made after step `k` names it one lower, and one that named step `k`'s own item
/// names what step `k` picked (a vertex's children go to its parent). Returns the changed
/// draws `(index, value)`.
pub fn renumbered(choices: &[Choice], lp: &Loop, k: usize) -> Vec<(usize, u64)> {
    let first = lp.steps[0].start;
    // Step t's draw allows 0..=max₀ + t, and step t makes item max₀ + t + 1.
    let made = choices[first].max.saturating_add(k as u64 + 1);
    let picked = choices[lp.steps[k].start].value;
    lp.steps[k + 1..]
        .iter()
        .filter_map(|step| {
            let value = choices[step.start].value;
            let renamed = match value {
                v if v == made => picked,
                v if v > made => v - 1,
                _ => return None,
            };
            Some((step.start, renamed))
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn choice(label: u32, max: u64, value: u64) -> Choice {
        Choice { label, max, value }
    }

    /// A tree of 5 vertices as `n = randint(2, 12)` (label 0), then parents `randint(1, i -
    /// 1)` for i = 2..=5 (label 1), then a shuffle of the 5 labels (label 2).
    fn tree() -> Vec<Choice> {
        let mut c = vec![choice(0, 10, 3)];
        for (i, parent) in [(2, 1), (3, 1), (4, 3), (5, 3)] {
            c.push(choice(1, i - 2, parent - 1));
        }
        for m in (1..=4).rev() {
            c.push(choice(2, m, 0));
        }
        c
    }

    #[test]
    fn loops_are_found_with_their_trends() {
        let c = tree();
        let found = loops(&c);
        assert_eq!(found.len(), 2);
        assert_eq!(found[0].label, 1);
        assert_eq!(found[0].steps, [1..2, 2..3, 3..4, 4..5]);
        assert_eq!(found[0].trend, Trend::Growing);
        assert_eq!(found[1].trend, Trend::Shrinking);
        assert_eq!(found[1].dropped_step(), 5..6);
        assert_eq!(found[0].dropped_step(), 4..5);
    }

    #[test]
    fn a_loop_of_two_draws_a_step_is_one_loop() {
        // for each of 3 edges: u (label 1), v (label 2).
        let c = [
            choice(0, 9, 2),
            choice(1, 9, 1),
            choice(2, 9, 2),
            choice(1, 9, 3),
            choice(2, 9, 4),
            choice(1, 9, 5),
            choice(2, 9, 6),
        ];
        let found = loops(&c);
        assert_eq!(found.len(), 1);
        assert_eq!(found[0].steps, [1..3, 3..5, 5..7]);
    }

    #[test]
    fn removing_a_vertex_hands_its_children_to_its_parent() {
        let c = tree();
        let parents = &loops(&c)[0];
        // Vertex 3 (step 1, parent 1) goes: vertex 4 and 5 (parent 3) go to 1, and become
        // vertices 3 and 4.
        assert_eq!(renumbered(&c, parents, 1), [(3, 0), (4, 0)]);
        // Vertex 4 (step 2, parent 3), a leaf: vertex 5's parent 3 stays.
        assert_eq!(renumbered(&c, parents, 2), []);
    }
}
