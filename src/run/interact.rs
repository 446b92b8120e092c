//! Interactive runs ([`run_interactive`]): the program and an interactor, each under its own
//! limits, talk through the harness. The harness relays both directions (the program's
//! stdout to the interactor's stdin, the interactor's stdout to the program's stdin) inside
//! one `poll` loop, which gives it the exchange ([`Transcript`]) and a view of "nothing
//! moves": when every live party sleeps, no byte moved and no CPU was used for the idleness
//! limit, the run is stopped ([`Limit::Idleness`]), the usual end of a program that forgot to
//! flush, long before the wall clock would end it. When both parties are seen blocked reading
//! their standard input with nothing in flight between them, that deadlock stops the run
//! after [`DEADLOCK_CONFIRMED`] rather than the whole idleness limit.
//!
//! The interactor is called as testlib's are: `interactor input output`, in the caller's
//! directory, with the case's input in a scratch file; its exit code is the verdict, which
//! the judge reads (see `judge::interactor`).

use std::collections::VecDeque;
use std::ffi::OsString;
use std::fs::File;
use std::io::{self, Read, Write};
use std::os::fd::{AsRawFd, OwnedFd};
use std::time::{Duration, Instant};

use super::Stop;
use super::cancel::RunEntry;
use super::captured::Upto;
use super::contain::Role;
use super::error::{RunError, setup_error};
use super::limits::{Limit, Limits};
use super::party::{Ends, Output, Party};
use super::pipes::{Drain, drain_after_death, set_nonblocking};
use super::spawn::Stdin;
use super::supervise::{Watch, interval};
use super::transcript::{Direction, Transcript};

pub use super::interaction::{IDLENESS, Interaction};

/// How much one direction holds before the harness stops reading from its writer (which then
/// waits, as it would on a full pipe).
const RELAY_BUFFER: usize = 1024 * 1024;

/// One read's size.
const CHUNK: usize = 64 * 1024;

/// How long both parties must be seen blocked reading their standard input, with nothing in
/// flight between them and nothing moving, before that deadlock stops the run without waiting
/// out the idleness limit: long enough for every sample in it to have found both so, and for a
/// byte written just before the first sample to have been relayed (which ends it).
const DEADLOCK_CONFIRMED: Duration = Duration::from_millis(100);

/// One direction of the exchange: what the writer wrote, held until the reader takes it.
struct Relay {
    from: Direction,
    source: Option<File>,
    sink: Option<File>,
    pending: VecDeque<u8>,
    /// Every byte read from the writer.
    total: u64,
    /// For the program's output: what is kept of it (up to the limit), and whether more came.
    kept: Option<Upto>,
    exceeded: bool,
}

impl Relay {
    fn new(from: Direction, source: OwnedFd, sink: OwnedFd) -> io::Result<Relay> {
        set_nonblocking(source.as_raw_fd())?;
        set_nonblocking(sink.as_raw_fd())?;
        Ok(Relay {
            from,
            source: Some(File::from(source)),
            sink: Some(File::from(sink)),
            pending: VecDeque::new(),
            total: 0,
            kept: None,
            exceeded: false,
        })
    }

    /// The descriptor to wait on for data, while there is room to hold it.
    fn read_fd(&self) -> Option<i32> {
        let room = self.pending.len() < RELAY_BUFFER;
        self.source.as_ref().filter(|_| room).map(File::as_raw_fd)
    }

    /// The descriptor to wait on for room, while something is waiting to be written.
    fn write_fd(&self) -> Option<i32> {
        let waiting = !self.pending.is_empty();
        self.sink.as_ref().filter(|_| waiting).map(File::as_raw_fd)
    }

    /// Reads what the writer has written (one chunk); returns how many bytes came.
    fn read_ready(&mut self, transcript: &mut Transcript) -> usize {
        let Some(source) = self.source.as_mut() else {
            return 0;
        };
        let mut buf = [0u8; CHUNK];
        let got = match source.read(&mut buf) {
            Ok(0) => {
                self.source = None;
                0
            }
            Ok(n) => n,
            Err(e)
                if matches!(
                    e.kind(),
                    io::ErrorKind::WouldBlock | io::ErrorKind::Interrupted
                ) =>
            {
                0
            }
            Err(_) => {
                self.source = None;
                0
            }
        };
        let bytes = &buf[..got];
        self.total += got as u64;
        transcript.record(self.from, bytes);
        if let Some(kept) = self.kept.as_mut()
            && kept.push(bytes)
        {
            self.exceeded = true;
        }
        if self.sink.is_some() {
            self.pending.extend(bytes);
        }
        self.close_when_done();
        got
    }

    /// Writes what the reader's pipe takes now. A reader that is gone (`EPIPE`) gets nothing
    /// more; what its writer still writes is read and dropped.
    fn write_ready(&mut self) {
        let Some(sink) = self.sink.as_mut() else {
            return;
        };
        while !self.pending.is_empty() {
            let (front, _) = self.pending.as_slices();
            match sink.write(front) {
                Ok(n) => {
                    self.pending.drain(..n);
                }
                Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
                Err(e) if e.kind() == io::ErrorKind::WouldBlock => return,
                Err(_) => {
                    self.sink = None;
                    self.pending.clear();
                    return;
                }
            }
        }
        self.close_when_done();
    }

    /// Once the writer has closed its end and everything it wrote is delivered, the reader
    /// sees the end of its input.
    fn close_when_done(&mut self) {
        if self.source.is_none() && self.pending.is_empty() {
            self.sink = None;
        }
    }

    /// Stops relaying: the writer is dead.
    fn close(&mut self) {
        self.source = None;
        self.close_when_done();
    }
}

/// Runs `program` against `interactor` on the case `input`: the program under `limits`
/// (stopped at `stop`), the interactor under `interactor_limits`. `Err` only for a harness
/// failure (either cannot start, a scratch file cannot be written).
pub fn run_interactive(
    program: &[OsString],
    interactor: &[OsString],
    input: &[u8],
    limits: &Limits,
    interactor_limits: &Limits,
) -> Result<Interaction, RunError> {
    let stop = Stop::once(limits);
    interact_until(program, interactor, input, limits, interactor_limits, stop)
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
    let (judge_exe, judge_args) = interactor.split_first().ok_or(RunError::NoProgram)?;
    if super::contain::helpers_boxed() {
        // A package's interactor, contained: its input in the folder it reads, its output
        // in the one it writes, and a scratch folder of its own to run in.
        return super::contain::with_helper_files(|files| {
            let args = boxed_interactor_files(judge_args, input, files)?;
            let mut judge_scratch = super::scratch::Scratch::acquire()
                .map_err(setup_error("cannot create a scratch working directory"))?;
            let judge = (
                super::command::resolve_program(judge_exe).into_os_string(),
                super::command::resolve_args(&args, &[]),
            );
            let interaction = interact_with(
                program,
                judge_exe,
                (&judge.0, &judge.1, Some(&mut judge_scratch)),
                limits,
                interactor_limits,
                stop,
            )?;
            Ok(interaction)
        })
        .map_err(|e| match e.downcast::<RunError>() {
            Ok(run) => run,
            Err(other) => RunError::Setup {
                what: "cannot prepare the interactor's files".to_string(),
                source: std::io::Error::other(format!("{other:#}")),
            },
        });
    }
    // Kept until the interactor is over: it holds the case's input file.
    let (_files, judge_args) = super::interaction::interactor_files(judge_args, input)?;
    interact_with(
        program,
        judge_exe,
        (judge_exe, &judge_args, None),
        limits,
        interactor_limits,
        stop,
    )
}

/// The run of `program` with the interactor (`shown`, started as `judge`: its executable,
/// its arguments, and the scratch folder it runs in when it is contained).
#[allow(clippy::type_complexity)]
fn interact_with(
    program: &[OsString],
    shown: &OsString,
    judge: (&OsString, &[OsString], Option<&mut super::scratch::Scratch>),
    limits: &Limits,
    interactor_limits: &Limits,
    stop: Stop,
) -> Result<Interaction, RunError> {
    let (exe, args) = program.split_first().ok_or(RunError::NoProgram)?;
    let (judge_exe, judge_args, judge_scratch) = judge;
    let stop_limits = Limits {
        cpu: stop.cpu,
        ..*limits
    };
    let program_entry = RunEntry::begin();
    let judge_entry = RunEntry::begin();
    // Contained, the program runs in a scratch directory, as every program under test.
    let mut scratch = match super::contain::contained() {
        true => Some(
            super::scratch::Scratch::acquire()
                .map_err(setup_error("cannot create a scratch working directory"))?,
        ),
        false => None,
    };
    let (exe_path, args) = match &scratch {
        Some(_) => (
            super::command::resolve_program(exe).into_os_string(),
            super::command::resolve_args(args, &[]),
        ),
        None => (exe.clone(), args.to_vec()),
    };
    let program = Party::start(
        &program_entry,
        Role::Program,
        exe,
        &exe_path,
        &args,
        scratch.as_ref().map(super::scratch::Scratch::path),
        Stdin::Pipe,
        None,
        &stop_limits,
    )?;
    // What the program leaves in its working folder is found where it is, to be emptied.
    if let Some(dir) = scratch.as_mut() {
        dir.set_files_at(program.1.scratch_at.clone());
    }
    let judge_cwd = judge_scratch.as_ref().map(|d| d.path().to_path_buf());
    let judge = Party::start(
        &judge_entry,
        Role::Helper,
        shown,
        judge_exe,
        judge_args,
        judge_cwd.as_deref(),
        Stdin::Pipe,
        None,
        interactor_limits,
    )?;
    if let Some(dir) = judge_scratch {
        dir.set_files_at(judge.1.scratch_at.clone());
    }
    let mut exchange = Exchange::new(
        (program, stop_limits, stop.wall),
        (judge, *interactor_limits),
        limits,
    )?;
    exchange.supervise(limits, interactor_limits)?;
    exchange.finish(limits, interactor_limits)
}

/// The interactor's arguments followed by its two files, in the helper's folders: the
/// case's input in the one it reads, its output to be written in the other.
fn boxed_interactor_files(
    args: &[OsString],
    input: &[u8],
    files: &super::contain::HelperFiles,
) -> anyhow::Result<Vec<OsString>> {
    let input_path = files.read.join("input");
    std::fs::write(&input_path, input)
        .map_err(|e| anyhow::anyhow!("cannot write {}: {e}", input_path.display()))?;
    let mut args = args.to_vec();
    args.push(input_path.into_os_string());
    args.push(files.write.join("output").into_os_string());
    Ok(args)
}

/// The two parties and the two directions between them, while the run goes on.
struct Exchange<'e> {
    /// The program, then the interactor.
    sides: [Side<'e>; 2],
    /// From the program to the interactor, then back.
    relays: [Relay; 2],
    transcript: Transcript,
    idleness: Duration,
    /// See [`Interaction::interactor_stalled`].
    stalled: Option<String>,
    /// The interactor's output ended while the program still ran and wrote (see
    /// [`Exchange::note_interactor_closing`]).
    interactor_closed_first: Option<bool>,
    /// Since when both parties have been seen blocked reading, nothing moving (see
    /// [`Exchange::deadlocked`]).
    deadlock_since: Option<Instant>,
}

/// One party of the exchange.
struct Side<'e> {
    /// While it is not settled.
    party: Option<Party<'e>>,
    settled: Option<super::party::Settled>,
    stderr: Drain,
    /// The limits it is stopped at.
    limits: Limits,
    wall_cap: Duration,
    /// Its CPU time at the last sample that found it working.
    idle_cpu: Duration,
    /// It was killed because the run's verdict was decided without it.
    dismissed: bool,
}

const PROGRAM: usize = 0;
const INTERACTOR: usize = 1;

impl<'e> Exchange<'e> {
    /// The exchange between the started program (with the limits it is stopped at and its cap
    /// on the wall clock) and the started interactor (with its limits): the program's stdout
    /// relayed to the interactor's stdin, kept up to the output limit of `limits`, and back.
    fn new(
        (program, stop_limits, wall_cap): ((Party<'e>, Ends), Limits, Duration),
        (judge, judge_limits): ((Party<'e>, Ends), Limits),
        limits: &Limits,
    ) -> Result<Exchange<'e>, RunError> {
        let ((program, program_ends), (judge, judge_ends)) = (program, judge);
        // Each side's input ends when the other's output does: no copy of a read end is kept.
        drop((program_ends.stdin_read, judge_ends.stdin_read));
        let setup = |what: &'static str| setup_error(format!("cannot relay the {what}"));
        let (Some(program_in), Some(judge_in)) = (program_ends.stdin, judge_ends.stdin) else {
            return Err(setup("input")(io::Error::other("no stdin pipe")));
        };
        let mut to_judge = Relay::new(Direction::FromProgram, program_ends.stdout, judge_in)
            .map_err(setup("program's output"))?;
        to_judge.kept = Some(Upto::new(limits.output_bytes));
        let to_program = Relay::new(Direction::FromInteractor, judge_ends.stdout, program_in)
            .map_err(setup("interactor's output"))?;
        let side = |party, stderr, limits: Limits, wall_cap| -> Result<Side<'e>, RunError> {
            Ok(Side {
                party: Some(party),
                settled: None,
                stderr: Drain::tail(stderr).map_err(setup("stderr"))?,
                limits,
                wall_cap,
                idle_cpu: Duration::ZERO,
                dismissed: false,
            })
        };
        Ok(Exchange {
            sides: [
                side(program, program_ends.stderr, stop_limits, wall_cap)?,
                side(
                    judge,
                    judge_ends.stderr,
                    judge_limits,
                    Stop::once(&judge_limits).wall,
                )?,
            ],
            relays: [to_judge, to_program],
            transcript: Transcript::default(),
            idleness: IDLENESS.min(limits.wall),
            stalled: None,
            interactor_closed_first: None,
            deadlock_since: None,
        })
    }

    /// Relays until both parties are over (exited, or stopped for a limit), settling each
    /// as it ends.
    fn supervise(&mut self, limits: &Limits, interactor_limits: &Limits) -> Result<(), RunError> {
        let mut samples = 0u32;
        let mut next_sample = Instant::now() + interval(0);
        let mut last_moved = Instant::now();
        while self.sides.iter().any(|s| s.party.is_some()) {
            let mut watch = Watch::new();
            let exits = self.sides.each(|side| {
                side.party
                    .as_ref()
                    .and_then(|p| p.pidfd.as_ref().map(|fd| fd.as_raw_fd()))
            });
            let exit_at = exits.map(|fd| watch.add(fd, libc::POLLIN));
            let reads = self
                .relays
                .each(|r| r.read_fd())
                .map(|fd| watch.add(fd, libc::POLLIN));
            let writes = self
                .relays
                .each(|r| r.write_fd())
                .map(|fd| watch.add(fd, libc::POLLOUT));
            let errs = self
                .sides
                .each(|s| s.stderr.fd())
                .map(|fd| watch.add(fd, libc::POLLIN));
            watch.wait_until(next_sample);
            let mut moved = 0;
            for i in 0..2 {
                if watch.ready(reads[i]) {
                    moved += self.relays[i].read_ready(&mut self.transcript);
                }
                if watch.ready(writes[i]) {
                    self.relays[i].write_ready();
                }
                if watch.ready(errs[i]) {
                    self.sides[i].stderr.read_ready();
                }
            }
            if moved > 0 {
                last_moved = Instant::now();
            }
            self.note_interactor_closing();
            for (i, at) in exit_at.into_iter().enumerate() {
                let exited = self.sides[i]
                    .party
                    .as_ref()
                    .is_some_and(|p| p.exited_now(watch.ready(at)));
                if exited {
                    self.end(i, End::Exited, limits, interactor_limits)?;
                }
            }
            if self.relays[PROGRAM].exceeded {
                self.end(
                    PROGRAM,
                    End::Stopped(Limit::Output),
                    limits,
                    interactor_limits,
                )?;
                // Its verdict is decided: the interactor's is not needed.
                self.end(INTERACTOR, End::Dismissed, limits, interactor_limits)?;
            }
            if Instant::now() < next_sample {
                continue;
            }
            self.sample(&mut last_moved, limits, interactor_limits)?;
            samples = samples.saturating_add(1);
            next_sample = Instant::now() + interval(samples);
        }
        Ok(())
    }

    /// Notes, once, whether the interactor's output ended while the program still ran and
    /// wrote. The program sees that end and may die of it (an EOF error) before the
    /// interactor's own exit is seen: the order of the two exits does not say who ended first,
    /// the end of the interactor's output does. Both outputs ending in one round count as the
    /// program's first (its relay is read first).
    fn note_interactor_closing(&mut self) {
        if self.interactor_closed_first.is_none() && self.relays[INTERACTOR].source.is_none() {
            let program_writing = self.relays[PROGRAM].source.is_some();
            self.interactor_closed_first =
                Some(self.sides[PROGRAM].party.is_some() && program_writing);
        }
    }

    /// Samples both live parties: a party past a limit is stopped (the program's limits decide
    /// its verdict, so the interactor is stopped with it); everything asleep with nothing
    /// moving for the idleness limit stops the run.
    fn sample(
        &mut self,
        last_moved: &mut Instant,
        limits: &Limits,
        interactor_limits: &Limits,
    ) -> Result<(), RunError> {
        let mut working = false;
        let mut stops = [None, None];
        for (i, side) in self.sides.iter_mut().enumerate() {
            let Some(party) = side.party.as_mut() else {
                continue;
            };
            let sample = party.sample(&side.limits, side.wall_cap);
            if sample.runnable || party.seen.cpu > side.idle_cpu {
                working = true;
                side.idle_cpu = party.seen.cpu;
            }
            stops[i] = party.seen.stop;
        }
        if working {
            *last_moved = (*last_moved).max(Instant::now());
        }
        let deadlocked = !working && self.deadlocked(*last_moved);
        let idle = last_moved.elapsed() >= self.idleness || deadlocked;
        let program_waits =
            matches!(stops[PROGRAM], Some(Limit::WallTime)) || (stops[PROGRAM].is_none() && idle);
        if program_waits {
            self.stalled = self.interactor_stall();
        }
        if let Some(limit) = stops[PROGRAM] {
            self.end(PROGRAM, End::Stopped(limit), limits, interactor_limits)?;
            self.end(INTERACTOR, End::Dismissed, limits, interactor_limits)?;
        } else if let Some(limit) = stops[INTERACTOR] {
            self.end(INTERACTOR, End::Stopped(limit), limits, interactor_limits)?;
        } else if idle && self.sides[PROGRAM].party.is_some() {
            // The program waits for what never comes: it is the one judged.
            self.end(
                PROGRAM,
                End::Stopped(Limit::Idleness),
                limits,
                interactor_limits,
            )?;
            self.end(INTERACTOR, End::Dismissed, limits, interactor_limits)?;
        } else if idle {
            // The program is over; the interactor waits for nothing.
            self.end(
                INTERACTOR,
                End::Stopped(Limit::Idleness),
                limits,
                interactor_limits,
            )?;
        }
        Ok(())
    }

    /// Whether the run is a deadlock: both parties blocked reading their standard input (as
    /// `/proc` shows their leaders), nothing held for either and nothing moved since they were
    /// first seen so, for [`DEADLOCK_CONFIRMED`]. Then nothing can move again, and the run
    /// stops without waiting out the rest of the idleness limit (a forgotten flush in a stress
    /// run costs every failing case and every candidate of its minimization that limit). A
    /// party that cannot be told (an unreadable `/proc`), that sleeps or waits for anything
    /// else is left to the idleness limit.
    fn deadlocked(&mut self, last_moved: Instant) -> bool {
        let reading = |side: &Side<'_>| {
            side.party
                .as_ref()
                .is_some_and(|p| super::procfs::waits_for_input(p.leader.pid) == Some(true))
        };
        let held = self.relays.iter().any(|r| !r.pending.is_empty());
        if held || !self.sides.iter().all(reading) {
            self.deadlock_since = None;
            return false;
        }
        let now = Instant::now();
        let since = match self.deadlock_since {
            Some(since) if last_moved <= since => since,
            _ => now,
        };
        self.deadlock_since = Some(since);
        now.duration_since(since) >= DEADLOCK_CONFIRMED
    }

    /// When the program waits for the interactor's reply (it is blocked reading its stdin,
    /// and nothing is on its way to it) while the interactor is not waiting for the
    /// program (no thread of it reads or polls): what the interactor is doing instead.
    /// `None` when either cannot be told, as when `/proc` does not show it.
    fn interactor_stall(&self) -> Option<String> {
        let program = self.sides[PROGRAM].party.as_ref()?;
        let judge = self.sides[INTERACTOR].party.as_ref()?;
        if !self.relays[1].pending.is_empty()
            || super::procfs::waits_for_input(program.leader.pid) != Some(true)
            || super::procfs::waits_for_input(judge.leader.pid) != Some(false)
        {
            return None;
        }
        let running = super::procfs::stat(judge.leader.pid).is_some_and(|s| s.state == b'R');
        Some(if running { "computing" } else { "sleeping" }.to_string())
    }

    /// Ends side `i` as `how`: it is killed with all it started and reaped, and its peer sees
    /// the end of its input once what it wrote is delivered.
    fn end(
        &mut self,
        i: usize,
        how: End,
        limits: &Limits,
        interactor_limits: &Limits,
    ) -> Result<(), RunError> {
        let side = &mut self.sides[i];
        let Some(mut party) = side.party.take() else {
            return Ok(());
        };
        party.seen.wall = party.start.elapsed();
        match how {
            End::Exited => party.seen.exited = true,
            End::Stopped(limit) => {
                party.seen.stop = party.seen.stop.or(Some(limit));
                party.leader.kill_group();
            }
            End::Dismissed => {
                side.dismissed = true;
                party.leader.kill_group()
            }
        }
        let own = if i == PROGRAM {
            limits
        } else {
            interactor_limits
        };
        let settled = party.settle(own)?;
        let rejected = settled.exit_code().is_some_and(|code| code != 0);
        side.settled = Some(settled);
        // What it wrote is still read and passed on; the pipe's end shows the peer it is over.
        let relay = &mut self.relays[i];
        while relay.source.is_some() && relay.read_ready(&mut self.transcript) > 0 {}
        relay.close();
        relay.write_ready();
        // First means before the program's output ended: an interactor that exits on the end
        // of its input is answering the program's end, not deciding before it.
        let program_writing = self.relays[PROGRAM].source.is_some();
        let first = self.interactor_closed_first.unwrap_or(false)
            || (self.sides[PROGRAM].party.is_some() && program_writing);
        if i == INTERACTOR && how == End::Exited && first {
            self.transcript.interactor_ended_first = true;
            if rejected {
                // Its verdict is decided (as BAPCtools and DOMjudge decide it): what the
                // program does once its input ends, an EOF error most often, is not judged.
                self.end(PROGRAM, End::Dismissed, limits, interactor_limits)?;
            }
        }
        Ok(())
    }

    /// The two executions and the transcript.
    fn finish(
        mut self,
        limits: &Limits,
        interactor_limits: &Limits,
    ) -> Result<Interaction, RunError> {
        let mut stderrs: Vec<&mut Drain> = self.sides.iter_mut().map(|s| &mut s.stderr).collect();
        drain_after_death(&mut stderrs);
        let [program_side, judge_side] = self.sides;
        let [to_judge, _] = self.relays;
        let program_output = Output {
            stdout: to_judge.kept.map(Upto::finish).unwrap_or_default(),
            exceeded: to_judge.exceeded,
            stderr_bytes: program_side.stderr.total(),
            stderr: program_side.stderr.into_kept(),
        };
        let judge_output = Output {
            stdout: super::Captured::default(),
            exceeded: false,
            stderr_bytes: judge_side.stderr.total(),
            stderr: judge_side.stderr.into_kept(),
        };
        // Both are settled: the supervisor returns only once neither party is left.
        let settled = |side: Option<super::party::Settled>| {
            side.ok_or_else(|| {
                setup_error("an interactive run ended before its parties")(io::Error::other(
                    "a party was not reaped",
                ))
            })
        };
        Ok(Interaction {
            program: settled(program_side.settled)?.into_execution(limits, program_output, None),
            interactor: settled(judge_side.settled)?.into_execution(
                interactor_limits,
                judge_output,
                None,
            ),
            transcript: self.transcript,
            interactor_dismissed: judge_side.dismissed,
            interactor_stalled: self.stalled,
        })
    }
}

/// How a side's run ends.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum End {
    /// It exited by itself.
    Exited,
    /// It went past a limit.
    Stopped(Limit),
    /// The run's verdict is decided without it: it is killed.
    Dismissed,
}

/// The same question asked of both sides or both relays.
trait Each<T> {
    fn each<U>(&self, f: impl FnMut(&T) -> U) -> [U; 2];
}

impl<T> Each<T> for [T; 2] {
    fn each<U>(&self, f: impl FnMut(&T) -> U) -> [U; 2] {
        self.each_ref().map(f)
    }
}
