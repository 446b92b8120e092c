//! An interactive run off Linux: the program and the interactor started through the seam,
//! each one's stdout relayed to the other's stdin by a thread that records the transcript
//! (the program's side kept up to the output limit), both supervised until both are over.
//! A program stopped at a limit dismisses the interactor. Unlike Linux, a silent exchange is
//! stopped by the wall clock, not by the idleness limit.

use std::ffi::OsString;
use std::io::{Read, Write};
use std::process::{Command, Stdio};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use super::runner::{Launched, environment};
use super::streams::{self, Served, Tail};
use crate::run::Stop;
use crate::run::captured::Upto;
use crate::run::contain::Role;
use crate::run::error::{RunError, setup_error};
use crate::run::limits::{Limit, Limits};
use crate::run::transcript::{Direction, Transcript};

pub use crate::run::interaction::Interaction;

/// How long the relays get to finish once both parties have ended.
const GRACE: Duration = Duration::from_secs(2);

/// Runs `program` against `interactor` on the case `input` ([`crate::run::run_interactive`]).
pub fn run_interactive(
    program: &[OsString],
    interactor: &[OsString],
    input: &[u8],
    limits: &Limits,
    interactor_limits: &Limits,
) -> Result<Interaction, RunError> {
    interact_until(
        program,
        interactor,
        input,
        limits,
        interactor_limits,
        Stop::once(limits),
    )
}

/// [`run_interactive`], with the program stopped at `stop`.
pub(crate) fn interact_until(
    program: &[OsString],
    interactor: &[OsString],
    input: &[u8],
    limits: &Limits,
    interactor_limits: &Limits,
    stop: Stop,
) -> Result<Interaction, RunError> {
    let (exe, args) = program.split_first().ok_or(RunError::NoProgram)?;
    let (judge_exe, judge_args) = interactor.split_first().ok_or(RunError::NoProgram)?;
    let (_files, judge_args) = crate::run::interaction::interactor_files(judge_args, input)?;
    let stop_limits = Limits {
        cpu: stop.cpu,
        ..*limits
    };
    let command = |exe, args: &[OsString], role| {
        let mut command = Command::new(exe);
        command
            .args(args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped());
        environment(&mut command, role);
        command
    };
    let (mut program, program_pipes) =
        Launched::start(&mut command(exe, args, Role::Program), exe, &stop_limits)?;
    let (mut judge, judge_pipes) = Launched::start(
        &mut command(judge_exe, &judge_args, Role::Helper),
        judge_exe,
        interactor_limits,
    )?;
    let transcript = Arc::new(Mutex::new(Transcript::default()));
    let exceeded = Arc::new(AtomicBool::new(false));
    let relay_error = setup_error("cannot relay between the program and the interactor");
    let to_judge = relay(
        program_pipes.stdout,
        judge_pipes.stdin.expect("piped"),
        Direction::FromProgram,
        transcript.clone(),
        Some((limits.output_bytes, exceeded.clone())),
    )
    .map_err(relay_error)?;
    let to_program = relay(
        judge_pipes.stdout,
        program_pipes.stdin.expect("piped"),
        Direction::FromInteractor,
        transcript.clone(),
        None,
    )
    .map_err(setup_error(
        "cannot relay between the interactor and the program",
    ))?;
    let program_err = streams::tail(program_pipes.stderr).map_err(setup_error("stderr"))?;
    let judge_err = streams::tail(judge_pipes.stderr).map_err(setup_error("stderr"))?;
    let dismissed = watch(
        &mut program,
        (&stop_limits, stop.wall, &exceeded),
        &mut judge,
        interactor_limits,
    );
    let program = program.settle()?;
    let judge = judge.settle()?;
    let kept = to_judge.join(GRACE).flatten();
    to_program.join(GRACE);
    let mut program = program.into_execution(limits, exceeded.load(Ordering::SeqCst));
    program.stdout = kept.map(Upto::finish).unwrap_or_default();
    with_stderr(&mut program, program_err);
    let mut interactor = judge.into_execution(interactor_limits, false);
    with_stderr(&mut interactor, judge_err);
    let transcript = std::mem::take(&mut *transcript.lock().unwrap_or_else(|e| e.into_inner()));
    Ok(Interaction {
        program,
        interactor,
        transcript,
        interactor_dismissed: dismissed,
        interactor_stalled: None,
    })
}

/// Watches both parties until both are over, or the program's verdict is decided (then the
/// interactor is stopped: dismissed, which it returns). The program is stopped at its
/// limits, at its wall-clock cap, and when its output went past the limit.
fn watch(
    program: &mut Launched,
    (limits, cap, exceeded): (&Limits, Duration, &AtomicBool),
    judge: &mut Launched,
    judge_limits: &Limits,
) -> bool {
    let never = AtomicBool::new(false);
    let judge_cap = Stop::once(judge_limits).wall;
    let mut dismissed = false;
    let mut pause = Duration::from_micros(500);
    loop {
        let program_over = program.look(limits, cap, exceeded);
        let judge_over = judge.look(judge_limits, judge_cap, &never);
        if program_over && program.stopped_for().is_some() && !judge_over {
            // The program's verdict is decided: the interactor's is not needed.
            judge.stop(Limit::WallTime);
            dismissed = true;
        }
        if program_over && (judge_over || dismissed) {
            return dismissed;
        }
        std::thread::sleep(pause);
        pause = (pause * 2).min(Duration::from_millis(10));
    }
}

fn with_stderr(execution: &mut crate::run::Execution, tail: Served<Tail>) {
    let tail = tail.join(GRACE).unwrap_or_default();
    execution.stderr = tail.kept;
    execution.stderr_bytes = tail.total;
}

/// Relays `source` to `sink` as it comes, recording it; with `keep`, the first bytes up to
/// its limit are kept (and handed back), one more setting its flag. A sink that is gone gets
/// nothing more, and its source is read to its end all the same.
fn relay(
    mut source: impl Read + Send + 'static,
    sink: impl Write + Send + 'static,
    from: Direction,
    transcript: Arc<Mutex<Transcript>>,
    keep: Option<(u64, Arc<AtomicBool>)>,
) -> std::io::Result<Served<Option<Upto>>> {
    streams::serve("duipai-relay", move || {
        let mut sink = Some(sink);
        let mut kept = keep.as_ref().map(|(limit, _)| Upto::new(*limit));
        let mut buf = vec![0u8; 64 * 1024];
        while let Ok(n @ 1..) = source.read(&mut buf) {
            let bytes = &buf[..n];
            transcript
                .lock()
                .unwrap_or_else(|e| e.into_inner())
                .record(from, bytes);
            if let (Some(upto), Some((_, exceeded))) = (kept.as_mut(), &keep)
                && upto.push(bytes)
            {
                exceeded.store(true, Ordering::SeqCst);
            }
            if let Some(out) = sink.as_mut()
                && (out.write_all(bytes).is_err() || out.flush().is_err())
            {
                sink = None;
            }
        }
        kept
    })
}
