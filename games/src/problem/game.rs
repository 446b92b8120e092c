//! The typed side of a game: [`Game`], which each game implements with its own case and
//! answer types, and the one generic adapter, [`Builtin`], that turns any `Game` into the
//! object-safe [`Problem`] the engine uses, with [`Cases`], a whole input file of the game's
//! cases, as its [`Instance`]. What every game would otherwise write again lives here: the
//! file's structure (one case, a count first, a terminator line), the file-level shrink
//! passes (whole cases first), the answers as text, and the test-only [`Verify`] hooks.

use std::any::Any;
use std::fmt;
use std::marker::PhantomData;

use super::contract::{Family, Spec};
use super::coverage::Coverage;
use super::file;
use super::generate::SizeProfile;
use super::input::Scanner;
use super::package::Package;
use super::params::{BoundSpec, Bounds, ParamSpec};
use super::shrink::Candidates;
use crate::answer::Rule;
use crate::problem::contract::{Instance, Problem, Size, Verify};
use crate::problem::file::Structure;
use crate::problem::input::InputError;
use crate::problem::solution::{Explanation, SolveError};
use crate::random::Rng;

/// A game with its concrete case and answer types. Implemented by a unit type per game
/// (`ChessProblem`); registered through its [`Builtin`] static.
pub trait Game: Sized + Send + Sync + 'static {
    /// One case of the input (a board), which reads and writes its own text.
    type Case: CaseText + Clone + fmt::Debug + PartialEq + Send + Sync + 'static;
    /// One case's answer.
    type Answer: Clone + fmt::Debug + PartialEq;

    /// The name typed on the command line and used in file names (`chess`).
    const NAME: &'static str;
    /// One line for `--help`.
    const ABOUT: &'static str;
    /// How cases make up an input file.
    const STRUCTURE: Structure;
    /// How answers are compared.
    const RULE: Rule;
    /// The validator's bounds, at the official constraints by default.
    const BOUNDS: &'static [BoundSpec];
    /// The generator's parameters, in the order `--help` and replay lines list them.
    const PARAMS: &'static [ParamSpec];
    /// The case families (`--family`), in the order `mixed` draws from (without `mixed`).
    const FAMILIES: &'static [Family];
    /// The judge's limits: (CPU milliseconds, memory MiB).
    const LIMITS: (u64, u64);
    /// The statement's sample: (input, answer).
    const SAMPLE: (&'static str, &'static str);
    /// The built-in test plan `pack` follows (`generators/<name>.plan`).
    const PLAN: &'static str;
    /// Other built-in plans, by name (`pack --plan NAME`): chess's `official`.
    const NAMED_PLANS: &'static [(&'static str, &'static str)] = &[];
    /// The files of a judge's problem package beside the tests.
    const PACKAGE: &'static Package;
    /// How many shrink passes [`Game::shrink_pass`] has.
    const SHRINK_PASSES: usize;

    /// The game as the engine sees it (a `Builtin` holds nothing, so any one will do).
    fn registered() -> &'static Builtin<Self> {
        &Builtin(PhantomData)
    }

    /// One case of `family`. The draw order is part of the output format: changing it changes
    /// every golden hash.
    fn generate_case(
        rng: &mut Rng,
        family: &Family,
        profile: SizeProfile,
        spec: &Spec,
    ) -> Self::Case;

    /// A whole file's cases: one for a single-case game; otherwise as many as the `cases`
    /// parameter allows (drawn with the profile), each of `family`. Games whose families shape
    /// the whole file (a maximal file) override it.
    fn generate_file(
        rng: &mut Rng,
        family: &Family,
        profile: SizeProfile,
        spec: &Spec,
    ) -> Vec<Self::Case> {
        let count = match Self::STRUCTURE {
            Structure::Single => 1,
            _ => profile.sample(rng, spec.range("cases")),
        };
        (0..count)
            .map(|_| Self::generate_case(rng, family, profile, spec))
            .collect()
    }

    /// The exact answer, or why the solver declines (only with raised bounds).
    fn solve(case: &Self::Case) -> Result<Self::Answer, SolveError>;

    /// The line a program prints for `answer` as case `number` (1-based).
    fn answer_line(answer: &Self::Answer, number: usize) -> String;

    /// The answer, the board and one optimal line of play, as text.
    fn explain(case: &Self::Case) -> Result<Explanation, SolveError>;

    /// An independent exhaustive search sharing nothing with [`Game::solve`]; `None` when the
    /// case is too big for it.
    fn brute_force(case: &Self::Case) -> Option<Self::Answer>;

    /// The case's shape for reports (`3×4`).
    fn shape(case: &Self::Case) -> String;

    /// The game's own size order, most significant first: every shrink candidate is smaller
    /// in it (lexicographically). Every case of a game gives a vector of the same length.
    fn measure(case: &Self::Case) -> Vec<i64>;

    /// The largest value of the case, for the minimizer's progress line.
    fn largest(case: &Self::Case) -> i64;

    /// The candidates of shrink pass `pass`, most drastic first: each strictly smaller in
    /// [`Game::measure`], never equal to `case`, and valid wherever `case` is.
    fn shrink_pass(case: &Self::Case, pass: usize) -> Vec<Self::Case>;

    /// How many values the minimizer may lower one by one; none by default (a game whose
    /// values cannot be set one at a time leaves the three slot functions out).
    fn value_slots(case: &Self::Case) -> usize {
        let _ = case;
        0
    }

    /// The value in `slot`.
    fn value(case: &Self::Case, slot: usize) -> i64 {
        let _ = (case, slot);
        0
    }

    /// `case` with `slot` set to `value`, which the minimizer keeps within
    /// `0..=value(slot)`; the result stays valid.
    fn with_value(case: &Self::Case, slot: usize, value: i64) -> Self::Case {
        let _ = (slot, value);
        case.clone()
    }

    /// Whether a packed test point's cases are what its plan line's comment says
    /// (`# 11: a single column`); `None` for a claim the game has no check for, which the
    /// pack tests refuse. Every claim the game's plans make needs a check here.
    fn plan_claim(claim: &str, cases: &[Self::Case]) -> Option<bool> {
        let _ = (claim, cases);
        None
    }
}

/// A built-in game's [`Game::NAME`], [`Game::SAMPLE`] and [`Game::PLAN`] from its name
/// alone: the sample is `cases/<name>/01-sample.in` and `.ans`, the plan
/// `generators/<name>.plan`. Invoked inside the game's `impl Game`.
macro_rules! named {
    ($name:literal) => {
        const NAME: &'static str = $name;
        const SAMPLE: (&'static str, &'static str) = (
            include_str!(concat!(
                env!("CARGO_MANIFEST_DIR"),
                "/../cases/",
                $name,
                "/01-sample.in"
            )),
            include_str!(concat!(
                env!("CARGO_MANIFEST_DIR"),
                "/../cases/",
                $name,
                "/01-sample.ans"
            )),
        );
        const PLAN: &'static str = include_str!(concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/../generators/",
            $name,
            ".plan"
        ));
    };
}
pub(crate) use named;

/// A case's text form, both ways: each game implements it in its `parse.rs`.
pub trait CaseText: Sized {
    /// Reads one case at the scanner's position, strictly, every rejection positioned.
    fn read(s: &mut Scanner, bounds: &Bounds) -> Result<Self, InputError>;

    /// Appends the canonical text of one case: single spaces, `\n` line ends.
    fn write(&self, out: &mut String);
}

/// A [`Game`] as the engine sees it: a [`Problem`] (and, for tests, a [`Verify`]).
pub struct Builtin<G: Game>(PhantomData<fn() -> G>);

impl<G: Game> Builtin<G> {
    pub const fn new() -> Self {
        Builtin(PhantomData)
    }

    /// Parses a whole file into its cases.
    pub fn parse_cases(&self, text: &[u8], bounds: &Bounds) -> Result<Cases<G>, InputError> {
        let cases = file::read(text, bounds, G::STRUCTURE, G::Case::read)?;
        Ok(Cases::new(cases))
    }
}

impl<G: Game> Default for Builtin<G> {
    fn default() -> Self {
        Builtin::new()
    }
}

impl<G: Game> Problem for Builtin<G> {
    fn name(&self) -> &'static str {
        G::NAME
    }
    fn about(&self) -> &'static str {
        G::ABOUT
    }
    fn bounds(&self) -> &'static [BoundSpec] {
        G::BOUNDS
    }
    fn params(&self) -> &'static [ParamSpec] {
        G::PARAMS
    }
    fn families(&self) -> &'static [Family] {
        G::FAMILIES
    }
    fn structure(&self) -> Structure {
        G::STRUCTURE
    }
    fn rule(&self) -> Rule {
        G::RULE
    }
    fn default_limits(&self) -> (u64, u64) {
        G::LIMITS
    }
    fn sample(&self) -> (&'static str, &'static str) {
        G::SAMPLE
    }
    fn builtin_plan(&self) -> &'static str {
        G::PLAN
    }
    fn named_plans(&self) -> &'static [(&'static str, &'static str)] {
        G::NAMED_PLANS
    }
    fn package(&self) -> &'static Package {
        G::PACKAGE
    }
    fn parse(&self, text: &[u8], bounds: &Bounds) -> Result<Box<dyn Instance>, InputError> {
        Ok(Box::new(self.parse_cases(text, bounds)?))
    }
    fn coverage(&self, text: &[u8], bounds: &Bounds) -> Result<Coverage, InputError> {
        Ok(file::read_with_coverage(text, bounds, G::STRUCTURE, G::Case::read)?.1)
    }
    fn generate(&self, spec: &Spec, seed: u64) -> Box<dyn Instance> {
        let mut rng = Rng::from_seed(seed);
        let (family, profile) = spec.choose(&mut rng);
        Box::new(Cases::<G>::new(G::generate_file(
            &mut rng, &family, profile, spec,
        )))
    }
}

impl<G: Game> Verify for Builtin<G> {
    fn brute_force(&self, instance: &dyn Instance) -> Option<Vec<String>> {
        let file = instance.downcast_ref::<Cases<G>>()?;
        file.cases
            .iter()
            .enumerate()
            .map(|(i, case)| G::brute_force(case).map(|a| G::answer_line(&a, i + 1)))
            .collect()
    }

    fn plan_claim(&self, claim: &str, instance: &dyn Instance) -> Option<bool> {
        G::plan_claim(claim, &instance.downcast_ref::<Cases<G>>()?.cases)
    }
}

/// An input file of a game: its cases, and which case of the file it was shrunk from each
/// one came from.
pub struct Cases<G: Game> {
    cases: Vec<G::Case>,
    origins: Vec<usize>,
}

impl<G: Game> Clone for Cases<G> {
    fn clone(&self) -> Self {
        Cases {
            cases: self.cases.clone(),
            origins: self.origins.clone(),
        }
    }
}

impl<G: Game> fmt::Debug for Cases<G> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct(G::NAME).field("cases", &self.cases).finish()
    }
}

impl<G: Game> Cases<G> {
    /// A file of these cases, each its own origin.
    pub fn new(cases: Vec<G::Case>) -> Self {
        let origins = (0..cases.len()).collect();
        Cases { cases, origins }
    }

    /// A file of one case.
    pub fn single(case: G::Case) -> Self {
        Cases::new(vec![case])
    }

    /// The cases, in file order.
    pub fn cases(&self) -> &[G::Case] {
        &self.cases
    }

    /// The same file with case `index` replaced.
    fn with_case(&self, index: usize, case: G::Case) -> Self {
        let mut next = self.clone();
        next.cases[index] = case;
        next
    }

    /// The file without the cases at `drop`.
    fn without(&self, drop: &[usize]) -> Self {
        let kept: Vec<usize> = (0..self.cases.len())
            .filter(|i| !drop.contains(i))
            .collect();
        Cases {
            cases: kept.iter().map(|&i| self.cases[i].clone()).collect(),
            origins: kept.iter().map(|&i| self.origins[i]).collect(),
        }
    }

    /// How many file-level passes come before the game's own: dropping cases, for files that
    /// can hold several.
    fn case_passes() -> usize {
        match G::STRUCTURE {
            Structure::Single => 0,
            _ => 2,
        }
    }

    /// The case and its own slot for file slot `slot`.
    fn slot(&self, mut slot: usize) -> Option<(usize, usize)> {
        for (i, case) in self.cases.iter().enumerate() {
            let n = G::value_slots(case);
            if slot < n {
                return Some((i, slot));
            }
            slot -= n;
        }
        None
    }
}

impl<G: Game> Instance for Cases<G> {
    fn problem(&self) -> &'static dyn Problem {
        G::registered()
    }

    fn to_input(&self) -> String {
        file::write(&self.cases, G::STRUCTURE, G::Case::write)
    }

    fn case_count(&self) -> usize {
        self.cases.len()
    }

    fn shape(&self) -> String {
        match self.cases.as_slice() {
            [one] if G::STRUCTURE == Structure::Single => G::shape(one),
            [one] => format!("1 case: {}", G::shape(one)),
            cases => {
                let shapes: Vec<String> = cases.iter().take(3).map(G::shape).collect();
                let more = if cases.len() > 3 { ", …" } else { "" };
                format!("{} cases: {}{more}", cases.len(), shapes.join(", "))
            }
        }
    }

    fn size(&self) -> Size {
        let mut measure: Vec<i64> = Vec::new();
        for case in &self.cases {
            let m = G::measure(case);
            measure.resize(m.len().max(measure.len()), 0);
            for (total, v) in measure.iter_mut().zip(m) {
                *total = total.saturating_add(v);
            }
        }
        Size {
            cases: self.cases.len(),
            measure,
        }
    }

    fn largest(&self) -> i64 {
        self.cases.iter().map(G::largest).max().unwrap_or(0)
    }

    fn try_solve(&self) -> Result<Vec<String>, SolveError> {
        self.cases
            .iter()
            .enumerate()
            .map(|(i, case)| Ok(G::answer_line(&G::solve(case)?, i + 1)))
            .collect()
    }

    fn try_explain(&self) -> Result<Vec<Explanation>, SolveError> {
        self.cases.iter().map(G::explain).collect()
    }

    fn shrink_passes(&self) -> usize {
        Self::case_passes() + G::SHRINK_PASSES
    }

    fn shrink_pass(&self, pass: usize) -> Candidates<'_, Box<dyn Instance>> {
        let len = self.cases.len();
        if pass < Self::case_passes() {
            // Whole cases first (keeping one): chunks, then one at a time.
            return if pass == 0 {
                let levels = super::shrink::ChunkLevels::new(len);
                Candidates::lazy(levels.count(), move |i| {
                    let drop: Vec<usize> = levels.chunk(i).collect();
                    Some(Box::new(self.without(&drop)) as Box<dyn Instance>)
                })
            } else if len > 1 {
                Candidates::lazy(len, move |i| {
                    Some(Box::new(self.without(&[i])) as Box<dyn Instance>)
                })
            } else {
                Candidates::none()
            };
        }
        let pass = pass - Self::case_passes();
        // Each case's own candidates are small boards; the files holding them are made only
        // when probed.
        let per_case: Vec<Vec<G::Case>> =
            self.cases.iter().map(|c| G::shrink_pass(c, pass)).collect();
        let most = per_case.iter().map(Vec::len).max().unwrap_or(0);
        // The same reduction in every case at once first: a bug that needs two alike cases (a
        // state kept from one case to the next) keeps failing only if they shrink alike.
        let alike = if len > 1 { most } else { 0 };
        let singles: Vec<(usize, usize)> = per_case
            .iter()
            .enumerate()
            .flat_map(|(i, smaller)| (0..smaller.len()).map(move |k| (i, k)))
            .collect();
        Candidates::lazy(alike + singles.len(), move |index| {
            let file = if index < alike {
                let mut next = self.clone();
                for (case, smaller) in next.cases.iter_mut().zip(&per_case) {
                    if let Some(s) = smaller.get(index) {
                        *case = s.clone();
                    }
                }
                next
            } else {
                let (i, k) = singles[index - alike];
                self.with_case(i, per_case[i][k].clone())
            };
            Some(Box::new(file) as Box<dyn Instance>)
        })
    }

    fn value_slots(&self) -> usize {
        self.cases.iter().map(G::value_slots).sum()
    }

    fn value(&self, slot: usize) -> i64 {
        self.slot(slot)
            .map_or(0, |(i, s)| G::value(&self.cases[i], s))
    }

    fn with_value(&self, slot: usize, value: i64) -> Box<dyn Instance> {
        match self.slot(slot) {
            Some((i, s)) => Box::new(self.with_case(i, G::with_value(&self.cases[i], s, value))),
            None => Box::new(self.clone()),
        }
    }

    fn only_case(&self, index: usize) -> Box<dyn Instance> {
        let drop: Vec<usize> = (0..self.cases.len()).filter(|&i| i != index).collect();
        Box::new(self.without(&drop))
    }

    fn origins(&self) -> Vec<usize> {
        self.origins.clone()
    }

    fn clone_box(&self) -> Box<dyn Instance> {
        Box::new(self.clone())
    }

    fn as_any(&self) -> &dyn Any {
        self
    }
}

impl dyn Instance {
    /// The cases, if this is a file of the game `G`.
    pub fn cases_of<G: Game>(&self) -> Option<&[G::Case]> {
        self.downcast_ref::<Cases<G>>().map(Cases::cases)
    }

    /// The first case, if this is a file of the game `G` (the only one, for single-case
    /// games).
    pub fn first_case<G: Game>(&self) -> Option<&G::Case> {
        self.cases_of::<G>()?.first()
    }
}
