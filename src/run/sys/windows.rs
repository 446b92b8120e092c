//! The seam on Windows: each run is a Job Object. The program is started suspended, assigned
//! to a new job that kills everything in it once closed, bounds its active processes, its
//! committed memory and its CPU time, and reports to a completion port when the system refuses
//! it at one of those limits; then it is let run. CPU time is the job's accounting (user and
//! kernel time of every process it ever held), peak memory the job's peak commit; ending the
//! run is `TerminateJobObject`, which ends every process the program started.

use std::io;
use std::os::windows::io::AsRawHandle;
use std::os::windows::process::CommandExt;
use std::process::{Child, Command};
use std::time::Duration;

use windows_sys::Win32::Foundation::{CloseHandle, HANDLE, INVALID_HANDLE_VALUE, WAIT_OBJECT_0};
use windows_sys::Win32::System::Diagnostics::Debug::{
    SEM_FAILCRITICALERRORS, SEM_NOGPFAULTERRORBOX, SetErrorMode,
};
use windows_sys::Win32::System::Diagnostics::ToolHelp::{
    CreateToolhelp32Snapshot, TH32CS_SNAPTHREAD, THREADENTRY32, Thread32First, Thread32Next,
};
use windows_sys::Win32::System::IO::{
    CreateIoCompletionPort, GetQueuedCompletionStatus, OVERLAPPED,
};
use windows_sys::Win32::System::JobObjects::{
    AssignProcessToJobObject, CreateJobObjectW, JOB_OBJECT_LIMIT_ACTIVE_PROCESS,
    JOB_OBJECT_LIMIT_DIE_ON_UNHANDLED_EXCEPTION, JOB_OBJECT_LIMIT_JOB_MEMORY,
    JOB_OBJECT_LIMIT_JOB_TIME, JOB_OBJECT_LIMIT_KILL_ON_JOB_CLOSE,
    JOBOBJECT_ASSOCIATE_COMPLETION_PORT, JOBOBJECT_BASIC_ACCOUNTING_INFORMATION,
    JOBOBJECT_EXTENDED_LIMIT_INFORMATION, JobObjectAssociateCompletionPortInformation,
    JobObjectBasicAccountingInformation, JobObjectExtendedLimitInformation,
    QueryInformationJobObject, SetInformationJobObject, TerminateJobObject,
};
use windows_sys::Win32::System::Threading::{
    CREATE_NEW_PROCESS_GROUP, CREATE_SUSPENDED, GetExitCodeProcess, OpenThread, ResumeThread,
    THREAD_SUSPEND_RESUME, WaitForSingleObject,
};

use super::{Status, Tree, Used};
use crate::run::limits::Limits;
use crate::run::signal::sig;

/// The completion port's messages about a job (winnt.h's `JOB_OBJECT_MSG_*`).
const MSG_END_OF_JOB_TIME: u32 = 1;
const MSG_END_OF_PROCESS_TIME: u32 = 2;
const MSG_ACTIVE_PROCESS_LIMIT: u32 = 3;
const MSG_PROCESS_MEMORY_LIMIT: u32 = 9;
const MSG_JOB_MEMORY_LIMIT: u32 = 10;

/// The exit code a process ended by duipai gets.
const ENDED_BY_DUIPAI: u32 = 0xD01;

/// Makes the harness's children fail without an error dialog (the error mode is inherited):
/// a crashing program must end, not wait for someone to close a window.
pub(super) fn quiet_errors() {
    static ONCE: std::sync::Once = std::sync::Once::new();
    // SAFETY: SetErrorMode only sets a flag of this process.
    ONCE.call_once(|| unsafe {
        SetErrorMode(SEM_FAILCRITICALERRORS | SEM_NOGPFAULTERRORBOX);
    });
}

/// A run's Job Object, its completion port, and its first process.
pub(super) struct System {
    job: HANDLE,
    port: HANDLE,
    process: HANDLE,
    /// What the completion port told so far.
    refused: Used,
}

// SAFETY: the handles are owned by this value and used from one thread at a time; a job
// handle may be used from any thread.
unsafe impl Send for System {}

/// A job handle, to end the run from another thread (an interrupt).
#[derive(Clone, Copy)]
pub(super) struct JobEnder(usize);

impl Tree for System {
    type Ender = JobEnder;

    fn prepare(command: &mut Command, _limits: &Limits) {
        // Suspended until it is in its job, so that nothing it starts escapes the job; in a
        // process group of its own, so that the console's Ctrl-C reaches duipai alone.
        command.creation_flags(CREATE_SUSPENDED | CREATE_NEW_PROCESS_GROUP);
    }

    fn adopt(child: &Child, limits: &Limits) -> io::Result<System> {
        let process = child.as_raw_handle() as HANDLE;
        let (job, port) = job(limits)?;
        let system = System {
            job,
            port,
            process,
            refused: Used::default(),
        };
        // SAFETY: both handles are valid: the job just made, the child's process handle.
        if unsafe { AssignProcessToJobObject(job, process) } == 0 {
            return Err(io::Error::last_os_error());
        }
        resume(child.id())?;
        Ok(system)
    }

    fn ender(&self) -> JobEnder {
        JobEnder(self.job as usize)
    }

    fn end_by(ender: JobEnder) {
        // SAFETY: the job handle stays open while its run is registered (see `cancel`).
        unsafe { TerminateJobObject(ender.0 as HANDLE, ENDED_BY_DUIPAI) };
    }

    fn exited(&mut self) -> bool {
        // SAFETY: a valid process handle; a zero timeout only polls.
        unsafe { WaitForSingleObject(self.process, 0) == WAIT_OBJECT_0 }
    }

    fn used(&mut self) -> Used {
        self.read_port();
        let mut used = self.refused;
        if let Some(basic) = self.accounting() {
            // 100-nanosecond units.
            let ticks = (basic.TotalUserTime.max(0) + basic.TotalKernelTime.max(0)) as u64;
            used.cpu = Duration::from_nanos(ticks.saturating_mul(100));
            used.processes = u64::from(basic.ActiveProcesses);
        } else {
            used.processes = u64::from(!self.exited());
        }
        used.memory = self
            .limits_info()
            .map(|info| (info.PeakJobMemoryUsed.max(info.PeakProcessMemoryUsed)) as u64);
        used
    }

    fn end(&mut self) -> u32 {
        let others = match self.accounting() {
            Some(basic) => basic
                .ActiveProcesses
                .saturating_sub(u32::from(!self.exited())),
            None => 0,
        };
        // SAFETY: a valid job handle.
        unsafe { TerminateJobObject(self.job, ENDED_BY_DUIPAI) };
        // SAFETY: a valid process handle: its end is what TerminateJobObject started.
        unsafe { WaitForSingleObject(self.process, 5000) };
        // Every process of the job is gone before the run is over (where the job counts
        // them: Wine does not).
        let deadline = std::time::Instant::now() + Duration::from_secs(5);
        while self.accounting().is_some_and(|b| b.ActiveProcesses > 0)
            && std::time::Instant::now() < deadline
        {
            std::thread::sleep(Duration::from_millis(1));
        }
        others
    }

    fn finish(&mut self) -> io::Result<(Status, Used)> {
        let used = self.used();
        let mut code = 0u32;
        // SAFETY: a valid process handle and an out-pointer.
        if unsafe { GetExitCodeProcess(self.process, &mut code) } == 0 {
            return Err(io::Error::last_os_error());
        }
        Ok((status(code), used))
    }
}

impl System {
    /// The job's accounting; `None` where the system does not keep it (Wine).
    fn accounting(&self) -> Option<JOBOBJECT_BASIC_ACCOUNTING_INFORMATION> {
        let mut basic = JOBOBJECT_BASIC_ACCOUNTING_INFORMATION::default();
        // SAFETY: a valid job handle and a buffer of the size given.
        let ok = unsafe {
            QueryInformationJobObject(
                self.job,
                JobObjectBasicAccountingInformation,
                (&raw mut basic).cast(),
                size_of_val(&basic) as u32,
                std::ptr::null_mut(),
            )
        };
        (ok != 0).then_some(basic)
    }

    /// The job's limits and peaks; `None` where the system does not tell.
    fn limits_info(&self) -> Option<JOBOBJECT_EXTENDED_LIMIT_INFORMATION> {
        let mut info = JOBOBJECT_EXTENDED_LIMIT_INFORMATION::default();
        // SAFETY: a valid job handle and a buffer of the size given.
        let ok = unsafe {
            QueryInformationJobObject(
                self.job,
                JobObjectExtendedLimitInformation,
                (&raw mut info).cast(),
                size_of_val(&info) as u32,
                std::ptr::null_mut(),
            )
        };
        (ok != 0 && info.PeakJobMemoryUsed.max(info.PeakProcessMemoryUsed) > 0).then_some(info)
    }

    /// Takes the completion port's messages: the limits the system refused the job past.
    fn read_port(&mut self) {
        loop {
            let (mut message, mut key, mut overlapped) = (0u32, 0usize, std::ptr::null_mut());
            // SAFETY: a valid port and out-pointers; a zero timeout only polls.
            let got = unsafe {
                GetQueuedCompletionStatus(
                    self.port,
                    &mut message,
                    &mut key,
                    &mut overlapped as *mut *mut OVERLAPPED,
                    0,
                )
            };
            if got == 0 {
                return;
            }
            match message {
                MSG_END_OF_JOB_TIME | MSG_END_OF_PROCESS_TIME => self.refused.cpu_refused = true,
                MSG_ACTIVE_PROCESS_LIMIT => self.refused.processes_refused = true,
                MSG_PROCESS_MEMORY_LIMIT | MSG_JOB_MEMORY_LIMIT => {
                    self.refused.memory_refused = true
                }
                _ => {}
            }
        }
    }
}

impl Drop for System {
    fn drop(&mut self) {
        // SAFETY: the handles are this value's own; closing the job kills what is left in it.
        unsafe {
            CloseHandle(self.job);
            CloseHandle(self.port);
        }
    }
}

/// A job for a run under `limits`, with its completion port.
fn job(limits: &Limits) -> io::Result<(HANDLE, HANDLE)> {
    // SAFETY: no security attributes, no name.
    let job = unsafe { CreateJobObjectW(std::ptr::null(), std::ptr::null()) };
    if job.is_null() {
        return Err(io::Error::last_os_error());
    }
    // SAFETY: a new port of its own, for one thread.
    let port = unsafe { CreateIoCompletionPort(INVALID_HANDLE_VALUE, std::ptr::null_mut(), 0, 1) };
    if port.is_null() {
        let error = io::Error::last_os_error();
        // SAFETY: the job just made.
        unsafe { CloseHandle(job) };
        return Err(error);
    }
    let close = |error: io::Error| {
        // SAFETY: the handles just made.
        unsafe {
            CloseHandle(job);
            CloseHandle(port);
        }
        error
    };
    let mut info = JOBOBJECT_EXTENDED_LIMIT_INFORMATION::default();
    let basic = &mut info.BasicLimitInformation;
    basic.LimitFlags = JOB_OBJECT_LIMIT_KILL_ON_JOB_CLOSE
        | JOB_OBJECT_LIMIT_DIE_ON_UNHANDLED_EXCEPTION
        | JOB_OBJECT_LIMIT_ACTIVE_PROCESS
        | JOB_OBJECT_LIMIT_JOB_MEMORY
        | JOB_OBJECT_LIMIT_JOB_TIME;
    basic.ActiveProcessLimit = limits.processes.clamp(1, u64::from(u32::MAX)) as u32;
    // The CPU limit is the supervisor's, from the job's accounting; this one, a second
    // later (and counting user time only), stops a runaway if the supervisor cannot.
    let backstop = limits.cpu + Duration::from_secs(1);
    basic.PerJobUserTimeLimit = (backstop.as_nanos() / 100).min(i64::MAX as u128) as i64;
    info.JobMemoryLimit = usize::try_from(limits.memory_bytes).unwrap_or(usize::MAX);
    // SAFETY: a valid job handle and a structure of the size given.
    let set = unsafe {
        SetInformationJobObject(
            job,
            JobObjectExtendedLimitInformation,
            (&raw const info).cast(),
            size_of_val(&info) as u32,
        )
    };
    if set == 0 {
        return Err(close(io::Error::last_os_error()));
    }
    let association = JOBOBJECT_ASSOCIATE_COMPLETION_PORT {
        CompletionKey: std::ptr::null_mut(),
        CompletionPort: port,
    };
    // SAFETY: a valid job handle and a structure of the size given. A system that cannot
    // report to a port still enforces the limits: its refusals then go unnamed.
    unsafe {
        SetInformationJobObject(
            job,
            JobObjectAssociateCompletionPortInformation,
            (&raw const association).cast(),
            size_of_val(&association) as u32,
        )
    };
    Ok((job, port))
}

/// Lets the suspended process `pid` run: its one thread, found among the system's threads
/// (the standard library keeps the main thread's handle to itself).
fn resume(pid: u32) -> io::Result<()> {
    // SAFETY: a snapshot of every thread; no pointer.
    let snapshot = unsafe { CreateToolhelp32Snapshot(TH32CS_SNAPTHREAD, 0) };
    if snapshot == INVALID_HANDLE_VALUE {
        return Err(io::Error::last_os_error());
    }
    let mut entry = THREADENTRY32 {
        dwSize: size_of::<THREADENTRY32>() as u32,
        ..Default::default()
    };
    let mut resumed = 0;
    // SAFETY: a valid snapshot and an entry whose size is set.
    let mut more = unsafe { Thread32First(snapshot, &mut entry) } != 0;
    while more {
        if entry.th32OwnerProcessID == pid {
            // SAFETY: opening a thread by id; the handle is checked and closed.
            let thread = unsafe { OpenThread(THREAD_SUSPEND_RESUME, 0, entry.th32ThreadID) };
            if !thread.is_null() {
                // SAFETY: a valid thread handle, closed once used.
                unsafe {
                    if ResumeThread(thread) != u32::MAX {
                        resumed += 1;
                    }
                    CloseHandle(thread);
                }
            }
        }
        // SAFETY: as above.
        more = unsafe { Thread32Next(snapshot, &mut entry) } != 0;
    }
    // SAFETY: the snapshot's own handle.
    unsafe { CloseHandle(snapshot) };
    if resumed == 0 {
        return Err(io::Error::other(format!(
            "the started process {pid} has no thread to resume"
        )));
    }
    Ok(())
}

/// How a process with exit code `code` ended: the exceptions a crashing program dies of are
/// reported as the Linux signal that means the same (an access violation or a stack overflow
/// as SIGSEGV), so that verdicts read alike everywhere; any other code is an exit code.
fn status(code: u32) -> Status {
    let signal = match code {
        0xC000_0005 | 0xC000_00FD | 0xC000_0006 => sig::SIGSEGV,
        0xC000_0094 | 0xC000_0095 | 0xC000_008E | 0xC000_0090 | 0xC000_0091 | 0xC000_0093 => {
            sig::SIGFPE
        }
        0xC000_001D | 0xC000_0096 => sig::SIGILL,
        0xC000_0409 | 0xC000_0374 => sig::SIGABRT,
        0x8000_0003 => sig::SIGTRAP,
        0x8000_0002 => sig::SIGBUS,
        _ => return Status::Code(code as i32),
    };
    Status::Signal(signal)
}
