//! What the games' shrink candidates share: which lines to drop, which smaller values to try,
//! and a grid without some of its rows and columns.

/// Index sets to keep when dropping lines: the halves first, then each single line.
pub(crate) fn line_drops(len: usize) -> Vec<Vec<usize>> {
    let mut drops = Vec::new();
    if len >= 4 {
        drops.push((len / 2..len).collect());
        drops.push((0..len / 2).collect());
    }
    if len >= 2 {
        drops.extend((0..len).rev().map(|i| vec![i]));
    }
    drops
}

/// Smaller replacements for a value, most drastic first: 0, 1, v/2, then v − d for d = v/4,
/// v/8, …, 1, so a threshold anywhere below v is found in a logarithmic number of steps and
/// a property of small numbers (odd, nonzero) reaches its smallest witness quickly.
pub(crate) fn smaller_values(v: i64) -> impl Iterator<Item = i64> {
    let drastic = [0, 1, v / 2];
    let steps = std::iter::successors((v > 3).then_some(v / 4), |&d| (d > 1).then_some(d / 2))
        .map(move |d| v - d);
    let mut seen = Vec::new();
    drastic.into_iter().chain(steps).filter(move |&c| {
        c < v && c >= 0 && !seen.contains(&c) && {
            seen.push(c);
            true
        }
    })
}

pub(crate) fn without(
    rows: &[Vec<i64>],
    drop_rows: &[usize],
    drop_cols: &[usize],
) -> Vec<Vec<i64>> {
    rows.iter()
        .enumerate()
        .filter(|(i, _)| !drop_rows.contains(i))
        .map(|(_, row)| {
            row.iter()
                .enumerate()
                .filter(|(j, _)| !drop_cols.contains(j))
                .map(|(_, &v)| v)
                .collect()
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn smaller_values_are_strictly_smaller_and_distinct() {
        assert_eq!(smaller_values(0).collect::<Vec<_>>(), Vec::<i64>::new());
        assert_eq!(smaller_values(1).collect::<Vec<_>>(), vec![0]);
        assert_eq!(smaller_values(2).collect::<Vec<_>>(), vec![0, 1]);
        assert_eq!(smaller_values(100_000).count(), 18);
        assert_eq!(smaller_values(10).collect::<Vec<_>>(), vec![0, 1, 5, 8, 9]);
        assert_eq!(smaller_values(3).collect::<Vec<_>>(), vec![0, 1]);
    }
}
