//! Where each token of a text case sits in the input's shape ([`Place`]), the same for every
//! case a generator makes: what the generator's envelope is learned over.

use std::ops::Range;

use super::TextCase;
use super::layout::{Layout, List, Section};

/// Where a token sits in the input's shape, the same for every case a generator makes: its
/// line and column, where the lines that are items of a counted list do not count (they are
/// one place, that of their count), and inside a test case counted from the case's first
/// line. Lines and columns past [`EDGE`] share the place at the edge.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Place {
    /// Inside one of the test cases that follow a count T on the first line.
    pub in_case: bool,
    pub line: u32,
    pub column: u32,
    /// For an item of a counted list: its column in an item line (0 for a list of tokens);
    /// `line` and `column` are then its count's.
    pub item: Option<u32>,
    /// For an item: which of its count's sections holds it (`n`, then n values, then n
    /// lines: 0 and 1).
    pub section: u32,
}

/// Where places stop being told apart: the shape of a generator's cases is in their first
/// lines and columns, and a flat grid of numbers must not make a place of every cell.
pub const EDGE: u32 = 64;

/// One token of a case, placed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Placed {
    pub place: Place,
    /// Its value, when it is a number.
    pub value: Option<i64>,
    /// Whether it counts the items of a list (or the test cases).
    pub count: bool,
    /// Its text, when it is a word (not a number).
    pub word: Option<Vec<u8>>,
}

/// The parts tokens have in counted lists, while [`TextCase::placed`] finds them.
struct Roles {
    count: Vec<bool>,
    /// An item's count token, its section and its column in its item line.
    item_of: Vec<Option<(usize, u32, u32)>>,
    /// Lines made of items only.
    item_line: Vec<bool>,
}

impl Roles {
    fn new(tokens: usize, lines: usize) -> Roles {
        Roles {
            count: vec![false; tokens],
            item_of: vec![None; tokens],
            item_line: vec![false; lines],
        }
    }
}

impl TextCase {
    /// Every token, placed ([`Place`]). Lists of a single item are not taken for lists here:
    /// `1 5` is as likely two values as a list of one. With `tests` (the input is known to be
    /// test cases), a first line `1` is a count of one test case, all the lines after it.
    pub fn placed(&self, tests: bool) -> Vec<Placed> {
        let layout = self.read_layout(tests);
        let mut roles = Roles::new(self.tokens.len(), self.line_count());
        let regions = self.regions(&layout, &mut roles);
        self.take_lists(&layout, &regions, &mut roles);
        let at = self.line_places(&regions, &roles);
        let chars = layout.chars_words();
        let mut placed = Vec::with_capacity(self.tokens.len());
        for t in 0..self.tokens.len() {
            let place = match (roles.item_of[t], at[t]) {
                (Some((count, section, column)), _) => at[count].map(|p| Place {
                    item: Some(column.min(EDGE)),
                    section,
                    ..p
                }),
                (None, place) => place,
            };
            if let Some(place) = place {
                let string = self.is_word(t) || chars.binary_search(&t).is_ok();
                placed.push(Placed {
                    place,
                    value: if string { None } else { self.integer(t) },
                    count: roles.count[t],
                    word: string.then(|| self.token_text(t)),
                });
            }
        }
        placed
    }

    /// The regions lines are placed in: the whole text, or the first line and each test
    /// case (whose count is then marked).
    fn regions(&self, layout: &Layout, roles: &mut Roles) -> Vec<(Range<usize>, bool)> {
        if let Some(cases) = &layout.cases
            && let [Section::Blocks(blocks)] = cases.sections.as_slice()
        {
            roles.count[cases.count] = true;
            let mut regions = vec![(0..1, false)];
            regions.extend(blocks.iter().map(|b| (b.clone(), true)));
            return regions;
        }
        vec![(0..self.line_count(), false)]
    }

    /// Marks the counted lists of two items or more, each read within one region: a count at
    /// the end of one test case does not count the next case's first line.
    fn take_lists(&self, layout: &Layout, regions: &[(Range<usize>, bool)], roles: &mut Roles) {
        let mut region_of = vec![0; self.line_count()];
        for (r, (lines, _)) in regions.iter().enumerate() {
            region_of[lines.clone()].fill(r);
        }
        let within = |l: &List| {
            let region = region_of[self.line_of(l.count)];
            l.sections.iter().all(|s| match *s {
                Section::Tokens { from, len } => region_of[self.line_of(from + len - 1)] == region,
                Section::Lines { from, len } => region_of[from + len - 1] == region,
                Section::Chars { ref words } => {
                    words.iter().all(|&w| region_of[self.line_of(w)] == region)
                }
                Section::Blocks(_) => false,
            })
        };
        let mut counted: Vec<&List> = layout
            .lists
            .iter()
            .filter(|l| l.len >= 2 && within(l))
            .collect();
        counted.sort_by_key(|l| l.count);
        for list in counted {
            self.take_list(list, roles);
        }
    }

    /// Each token's place by its line and column in its region, the lines of items skipped.
    fn line_places(&self, regions: &[(Range<usize>, bool)], roles: &Roles) -> Vec<Option<Place>> {
        let mut at: Vec<Option<Place>> = vec![None; self.tokens.len()];
        for (lines, in_case) in regions {
            let rows = lines.clone().filter(|&l| !roles.item_line[l]);
            for (row, line) in rows.enumerate() {
                for (column, t) in self.line(line).enumerate() {
                    at[t] = Some(Place {
                        in_case: *in_case,
                        line: (row as u32).min(EDGE),
                        column: (column as u32).min(EDGE),
                        item: None,
                        section: 0,
                    });
                }
            }
        }
        at
    }

    /// Whether the input could be one test case: a first line `1`, then lines.
    pub fn one_test(&self) -> bool {
        self.line_count() > 1 && self.line_len(0) == 1 && self.count(0) == Some(1)
    }

    /// Marks `list`'s count and items, unless one of its tokens already has a part in a list
    /// found before it.
    fn take_list(&self, list: &List, roles: &mut Roles) {
        let mut items: Vec<(usize, u32, u32)> = Vec::new();
        for (s, section) in list.sections.iter().enumerate() {
            let s = s as u32;
            match *section {
                Section::Tokens { from, len } => {
                    items.extend((from..from + len).map(|t| (t, s, 0)))
                }
                Section::Lines { from, len } => {
                    for l in from..from + len {
                        let start = self.line(l).start;
                        items.extend(self.line(l).map(|t| (t, s, (t - start) as u32)));
                    }
                }
                Section::Chars { ref words } => items.extend(words.iter().map(|&t| (t, s, 0))),
                Section::Blocks(_) => return,
            }
        }
        let taken = |t: usize| roles.count[t] || roles.item_of[t].is_some();
        if taken(list.count) || items.iter().any(|&(t, _, _)| taken(t)) {
            return;
        }
        roles.count[list.count] = true;
        for &(t, section, column) in &items {
            roles.item_of[t] = Some((list.count, section, column));
        }
        let count_line = self.line_of(list.count);
        for section in &list.sections {
            match *section {
                Section::Tokens { from, .. } if self.line_of(from) != count_line => {
                    roles.item_line[self.line_of(from)] = true;
                }
                Section::Lines { from, len } => roles.item_line[from..from + len].fill(true),
                Section::Chars { ref words } => {
                    for &w in words {
                        roles.item_line[self.line_of(w)] = true;
                    }
                }
                _ => {}
            }
        }
    }
}
