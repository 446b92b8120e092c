//! `duipai doctor`: what this machine gives the runner, in the words of
//! [`crate::run::machine::survey`]: the protections `--sandbox` needs (exit 1 when one is
//! missing), how each limit is enforced here, and what makes timings unsteady.

use crate::app::exit::Status;
use crate::run::machine::{self, Finding, State};

pub fn run() -> anyhow::Result<Status> {
    let survey = machine::survey();
    let who = if survey.root {
        "as root"
    } else {
        "as an ordinary user"
    };
    println!("what this machine gives duipai, {who}:");
    println!("\nprotections (what --sandbox needs)");
    print_findings(&survey.protections);
    println!("\nlimits, and how they are enforced here");
    let width = survey
        .limits
        .iter()
        .map(|(l, _)| l.len())
        .max()
        .unwrap_or(0);
    for (limit, how) in &survey.limits {
        println!("  {limit:<width$}  {how}");
    }
    println!("\ntiming steadiness");
    print_findings(&survey.timing);
    if survey.sandbox_ready() {
        println!("\nevery protection can be had here: --sandbox runs");
        Ok(Status::Success)
    } else {
        println!("\na protection --sandbox needs is missing here: --sandbox refuses to run");
        Ok(Status::Failure)
    }
}

fn print_findings(findings: &[Finding]) {
    let width = findings.iter().map(|f| f.name.len()).max().unwrap_or(0);
    for f in findings {
        let state = match f.state {
            State::Ok => "ok",
            state => state.label(),
        };
        println!("  {state:<8} {:<width$}  {}", f.name, f.detail);
    }
}
