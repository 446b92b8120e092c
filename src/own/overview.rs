//! testlib's test overview log (`--testOverviewLogFileName`): which named bounds of a
//! validator (`inf.readInt(1, n, "n")`) an input reached at their minimum and maximum, as
//! Polygon shows it, merged over a set of inputs.

use std::collections::BTreeMap;

/// The bounds an input (or a set of inputs, merged) reached.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Overview {
    /// Per variable: whether some input hit its minimum, and its maximum.
    pub hits: BTreeMap<String, (bool, bool)>,
    /// Per variable: the constant bounds the validator declared (`1 100000`), as written.
    pub bounds: BTreeMap<String, (String, String)>,
}

impl Overview {
    /// Reads one log: lines `"n": min-value-hit max-value-hit`, `constant-bounds "n": 1 100`
    /// and `variable "n"`; anything else (features) is skipped.
    pub fn parse(text: &str) -> Overview {
        let mut overview = Overview::default();
        for line in text.lines() {
            if let Some(rest) = line.strip_prefix("constant-bounds ") {
                if let Some((name, values)) = quoted_name(rest) {
                    let mut words = values.split_whitespace();
                    let lo = words.next().unwrap_or("?").to_string();
                    let hi = words.next().unwrap_or("?").to_string();
                    overview.bounds.insert(name, (lo, hi));
                }
            } else if let Some(rest) = line.strip_prefix("variable ") {
                if let Some((name, _)) = quoted_name(rest) {
                    overview.hits.entry(name).or_default();
                }
            } else if line.starts_with('"')
                && let Some((name, flags)) = quoted_name(line)
            {
                let hit = overview.hits.entry(name).or_default();
                hit.0 |= flags.contains("min-value-hit");
                hit.1 |= flags.contains("max-value-hit");
            }
        }
        overview
    }

    /// Adds another input's overview.
    pub fn merge(&mut self, other: &Overview) {
        for (name, (min, max)) in &other.hits {
            let hit = self.hits.entry(name.clone()).or_default();
            hit.0 |= min;
            hit.1 |= max;
        }
        // A bound given by another variable (`r` in `l..=n`) is a number in each file: the
        // merged range is the widest.
        for (name, (lo, hi)) in &other.bounds {
            let merged = match self.bounds.get(name) {
                Some((old_lo, old_hi)) => (extreme(old_lo, lo, true), extreme(old_hi, hi, false)),
                None => (lo.clone(), hi.clone()),
            };
            self.bounds.insert(name.clone(), merged);
        }
    }

    /// The table of every variable: its declared range and which ends were reached, with
    /// `BOUND NOT REACHED` for an end no input reached.
    pub fn table(&self) -> Vec<String> {
        let mut rows = vec![(
            "bound".to_string(),
            "allowed".to_string(),
            "reached".to_string(),
        )];
        for (name, (min, max)) in &self.hits {
            let allowed = match self.bounds.get(name) {
                Some((lo, hi)) => format!("{lo}..={hi}"),
                None => "?".to_string(),
            };
            let missed: Vec<&str> = [(*min, "min"), (*max, "max")]
                .into_iter()
                .filter(|(hit, _)| !hit)
                .map(|(_, end)| end)
                .collect();
            let reached = if missed.is_empty() {
                "both ends reached".to_string()
            } else {
                format!("BOUND NOT REACHED: {}", missed.join(", "))
            };
            rows.push((name.clone(), allowed, reached));
        }
        let width =
            |f: fn(&(String, String, String)) -> usize| rows.iter().map(f).max().unwrap_or(0);
        let (w0, w1) = (width(|r| r.0.len()), width(|r| r.1.len()));
        rows.iter()
            .map(|(a, b, c)| format!("{a:<w0$}  {b:<w1$}  {c}").trim_end().to_string())
            .collect()
    }

    /// The overview as a log [`Overview::parse`] reads back the same, for keeping it.
    pub fn to_log(&self) -> String {
        let mut log = String::new();
        for (name, (min, max)) in &self.hits {
            let flags = [(*min, " min-value-hit"), (*max, " max-value-hit")];
            let hits: String = flags
                .iter()
                .filter(|(hit, _)| *hit)
                .map(|(_, f)| *f)
                .collect();
            log.push_str(&format!("\"{name}\":{hits}\n"));
        }
        for (name, (lo, hi)) in &self.bounds {
            log.push_str(&format!("constant-bounds \"{name}\": {lo} {hi}\n"));
        }
        log
    }

    /// The ends no input reached, `n min`, `a max`.
    pub fn missed(&self) -> Vec<String> {
        let mut missed = Vec::new();
        for (name, (min, max)) in &self.hits {
            if !min {
                missed.push(format!("{name} min"));
            }
            if !max {
                missed.push(format!("{name} max"));
            }
        }
        missed
    }
}

/// The smaller (`low`) or larger of two bounds as written, when both are numbers; `?` wins.
fn extreme(a: &str, b: &str, low: bool) -> String {
    match (a.parse::<f64>(), b.parse::<f64>()) {
        (Ok(x), Ok(y)) if (x <= y) == low => a.to_string(),
        (Ok(_), Ok(_)) => b.to_string(),
        _ => "?".to_string(),
    }
}

/// `"name": rest` or `"name" rest`: the name between the first two quotes and what follows.
fn quoted_name(text: &str) -> Option<(String, &str)> {
    let rest = text.strip_prefix('"')?;
    let end = rest.find('"')?;
    let name = rest[..end].to_string();
    let after = rest[end + 1..].trim_start_matches(':');
    Some((name, after))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_and_merges_testlib_logs() {
        let one = Overview::parse(
            "\"n\": min-value-hit\n\"a_i\":\nconstant-bounds \"n\": 1 100000\nvariable \"n\"\n",
        );
        assert_eq!(one.hits["n"], (true, false));
        assert_eq!(one.hits["a_i"], (false, false));
        assert_eq!(one.bounds["n"], ("1".to_string(), "100000".to_string()));
        let mut all = one.clone();
        all.merge(&Overview::parse(
            "\"n\": max-value-hit\n\"a_i\": max-value-hit\n",
        ));
        assert_eq!(all.hits["n"], (true, true));
        assert_eq!(all.missed(), ["a_i min"]);
        assert_eq!(Overview::parse(&all.to_log()), all);
        let table = all.table();
        assert!(table[1].starts_with("a_i"), "{table:?}");
        assert!(table[1].ends_with("BOUND NOT REACHED: min"), "{table:?}");
        assert!(table[2].contains("1..=100000"), "{table:?}");
    }
}
