//! What this machine gives the runner ([`survey`], for `duipai doctor`): each protection
//! `--sandbox` needs (a cgroup, namespaces, the box uid, the system call filter) and why it is
//! missing, the mechanism each limit is enforced by here, and what makes timings unsteady
//! (swap, SMT siblings, the CPU frequency governor and boost, other load, transparent huge
//! pages, a piped core pattern), as isolate's `isolate-check-environment` reports them.

use super::contain::{self, cgroup::Version};

pub use super::findings::{Finding, State, Survey};

/// Looks at this machine. It starts a throwaway keeper to see whether namespaces can be
/// made (as every contained command does once), and makes and removes a cgroup.
pub fn survey() -> Survey {
    let cgroup = contain::cgroups().map(|tree| tree.version);
    let namespaces = contain::namespaces_available();
    let root = contain::is_root();
    Survey {
        root,
        protections: protections(cgroup, namespaces, root),
        limits: limits(cgroup.ok()),
        timing: timing(),
    }
}

fn finding(name: &'static str, state: State, detail: impl Into<String>) -> Finding {
    Finding {
        name,
        state,
        detail: detail.into(),
    }
}

fn protections(
    cgroup: Result<Version, &String>,
    namespaces: Result<(), String>,
    root: bool,
) -> Vec<Finding> {
    let cgroup = match cgroup {
        Ok(Version::V2) if root => finding("cgroup", State::Ok, "cgroup v2, made by root"),
        Ok(Version::V2) => finding("cgroup", State::Ok, "cgroup v2, a subtree delegated to you"),
        Ok(Version::V1) => finding(
            "cgroup",
            State::Ok,
            "cgroup v1 (memory, pids and cpuacct hierarchies), made by root",
        ),
        Err(why) => finding("cgroup", State::Missing, why.clone()),
    };
    let spaces = match &namespaces {
        Ok(()) if root => finding(
            "namespaces",
            State::Ok,
            "PID, mount, network, UTS and IPC per worker, IPC emptied after each run",
        ),
        Ok(()) => finding(
            "namespaces",
            State::Ok,
            "user, PID, mount, network, UTS and IPC per worker, IPC emptied after each run \
             (unprivileged user namespaces)",
        ),
        Err(why) => finding("namespaces", State::Missing, why.clone()),
    };
    let box_uid = match (&namespaces, root) {
        (Ok(()), true) => finding(
            "box uid",
            State::Ok,
            format!(
                "programs run as uids from {} up, one per worker, owning nothing",
                contain::BOX_BASE
            ),
        ),
        (Ok(()), false) => finding(
            "box uid",
            State::Ok,
            "not root: programs keep your uid in a user namespace, with no capability",
        ),
        (Err(_), true) => finding(
            "box uid",
            State::Missing,
            "without namespaces a program would run as root",
        ),
        (Err(_), false) => finding(
            "box uid",
            State::Missing,
            "without namespaces a program runs as you, with your files",
        ),
    };
    vec![cgroup, spaces, box_uid, seccomp()]
}

/// Whether the kernel filters system calls (the `Seccomp` line of a process's status).
fn seccomp() -> Finding {
    let status = std::fs::read_to_string("/proc/self/status").unwrap_or_default();
    if status.lines().any(|l| l.starts_with("Seccomp:")) {
        finding(
            "seccomp",
            State::Ok,
            "the keyrings and AF_VSOCK sockets are refused to programs",
        )
    } else {
        finding(
            "seccomp",
            State::Missing,
            "this kernel filters no system call: a program could leave keys for the next run",
        )
    }
}

/// How each limit is enforced, with a cgroup of `version` or without one.
fn limits(version: Option<Version>) -> Vec<(&'static str, String)> {
    let output = "reading stops past the limit; RLIMIT_FSIZE for files".to_string();
    let Some(version) = version else {
        return vec![
            (
                "CPU time",
                "sampled from /proc over every process of the run (orphans included), and \
                 the CPU of the orphans the namespace's init reaped; RLIMIT_CPU as a backstop; \
                 children the kernel reaps unseen are not counted"
                    .to_string(),
            ),
            (
                "memory",
                "proportional set size of the run's processes (shared pages once, orphans \
                 included), sampled, with the files in its /tmp, /dev/shm and working folder \
                 (each a tmpfs bounded by the limits); RLIMIT_AS as a hard bound; pipe \
                 buffers and unmapped memfds are not counted"
                    .to_string(),
            ),
            (
                "processes",
                "counted from /proc and killed past the limit; RLIMIT_NPROC".to_string(),
            ),
            ("output", output),
        ];
    };
    let (cpu, memory) = match version {
        Version::V1 => ("cpuacct.usage", "memory.limit_in_bytes, max_usage_in_bytes"),
        Version::V2 => ("cpu.stat", "memory.max, memory.peak"),
    };
    vec![
        (
            "CPU time",
            format!("the cgroup's {cpu}: every process, reaped or not"),
        ),
        (
            "memory",
            format!(
                "the cgroup's {memory}: every page charged to the run, files in /tmp and \
                 /dev/shm, pipes, memfds, System V segments, shared pages once"
            ),
        ),
        (
            "processes",
            "the cgroup's pids.max: the kernel refuses the fork".to_string(),
        ),
        ("output", output),
    ]
}

/// What makes timings unsteady here.
fn timing() -> Vec<Finding> {
    vec![
        swap(),
        smt(),
        governor(),
        boost(),
        load(),
        huge_pages(),
        core_pattern(),
    ]
}

fn read(path: &str) -> Option<String> {
    std::fs::read_to_string(path)
        .ok()
        .map(|s| s.trim().to_string())
}

fn swap() -> Finding {
    let swaps = read("/proc/swaps").unwrap_or_default();
    let devices = swaps
        .lines()
        .skip(1)
        .filter(|l| !l.trim().is_empty())
        .count();
    if devices == 0 {
        finding("swap", State::Ok, "no swap")
    } else {
        finding(
            "swap",
            State::Warning,
            format!(
                "{devices} swap device(s): a program near its memory limit may be swapped and \
                 slowed (in a cgroup duipai sets no swap for the runs); swapoff -a"
            ),
        )
    }
}

fn smt() -> Finding {
    match read("/sys/devices/system/cpu/smt/active").as_deref() {
        Some("1") => finding(
            "SMT",
            State::Warning,
            "hyper-threading is on: a program shares its core with whatever runs on its \
             sibling; echo off > /sys/devices/system/cpu/smt/control",
        ),
        Some(_) => finding("SMT", State::Ok, "no SMT siblings"),
        None => match read("/sys/devices/system/cpu/cpu0/topology/thread_siblings_list") {
            Some(list) if list.contains(',') || list.contains('-') => finding(
                "SMT",
                State::Warning,
                format!("CPU 0 shares its core with CPUs {list}"),
            ),
            Some(_) => finding("SMT", State::Ok, "no SMT siblings"),
            None => finding("SMT", State::Unknown, "not exposed here"),
        },
    }
}

fn governor() -> Finding {
    let Ok(cpus) = std::fs::read_dir("/sys/devices/system/cpu/cpufreq") else {
        return finding(
            "governor",
            State::Unknown,
            "no CPU frequency scaling exposed here (a virtual machine?)",
        );
    };
    let governors: Vec<String> = cpus
        .flatten()
        .filter_map(|p| std::fs::read_to_string(p.path().join("scaling_governor")).ok())
        .map(|g| g.trim().to_string())
        .collect();
    let mut others: Vec<String> = governors
        .iter()
        .filter(|g| *g != "performance")
        .cloned()
        .collect();
    others.sort();
    others.dedup();
    if governors.is_empty() {
        finding(
            "governor",
            State::Unknown,
            "no CPU frequency scaling exposed here (a virtual machine?)",
        )
    } else if others.is_empty() {
        finding("governor", State::Ok, "performance")
    } else {
        finding(
            "governor",
            State::Warning,
            format!(
                "{}: the CPU speeds up and slows down with the load; set performance \
                 (cpupower frequency-set -g performance)",
                others.join(", ")
            ),
        )
    }
}

fn boost() -> Finding {
    let intel = read("/sys/devices/system/cpu/intel_pstate/no_turbo");
    let general = read("/sys/devices/system/cpu/cpufreq/boost");
    match (intel.as_deref(), general.as_deref()) {
        (Some("0"), _) => finding(
            "boost",
            State::Warning,
            "Intel turbo boost is on: speed depends on temperature and how many cores are \
             busy; echo 1 > /sys/devices/system/cpu/intel_pstate/no_turbo",
        ),
        (_, Some("1")) => finding(
            "boost",
            State::Warning,
            "frequency boost is on; echo 0 > /sys/devices/system/cpu/cpufreq/boost",
        ),
        (None, None) => finding("boost", State::Unknown, "not exposed here"),
        _ => finding("boost", State::Ok, "off"),
    }
}

fn load() -> Finding {
    let cpus = std::thread::available_parallelism().map_or(1, |n| n.get());
    let one_minute: f64 = read("/proc/loadavg")
        .and_then(|l| l.split_whitespace().next()?.parse().ok())
        .unwrap_or(0.0);
    if one_minute > cpus as f64 / 2.0 {
        finding(
            "load",
            State::Warning,
            format!(
                "load average {one_minute:.1} on {cpus} CPU(s): other programs compete for the \
                 CPUs (duipai does not count the wait for a CPU against the wall clock, but \
                 caches and memory are shared)"
            ),
        )
    } else {
        finding(
            "load",
            State::Ok,
            format!("load average {one_minute:.1} on {cpus} CPU(s)"),
        )
    }
}

fn huge_pages() -> Finding {
    match read("/sys/kernel/mm/transparent_hugepage/enabled") {
        Some(mode) if mode.contains("[always]") => finding(
            "huge pages",
            State::Warning,
            "transparent huge pages always: a program's speed depends on whether 2 MiB pages \
             are free; echo never > /sys/kernel/mm/transparent_hugepage/enabled",
        ),
        Some(_) => finding("huge pages", State::Ok, "transparent huge pages not forced"),
        None => finding("huge pages", State::Unknown, "not exposed here"),
    }
}

fn core_pattern() -> Finding {
    match read("/proc/sys/kernel/core_pattern") {
        Some(pattern) if pattern.starts_with('|') => finding(
            "core dumps",
            State::Warning,
            "core files are piped to a program: a crash takes longer to end than on a judge \
             (RLIMIT_CORE does not stop a pipe); echo core > /proc/sys/kernel/core_pattern",
        ),
        Some(_) => finding("core dumps", State::Ok, "not piped"),
        None => finding("core dumps", State::Unknown, "not exposed here"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The survey says something of every protection and of every source of noise it
    /// knows, and `--sandbox` readiness follows the protections alone.
    #[test]
    fn the_survey_covers_every_protection_and_source_of_noise() {
        let survey = survey();
        let names: Vec<&str> = survey.protections.iter().map(|f| f.name).collect();
        assert_eq!(names, ["cgroup", "namespaces", "box uid", "seccomp"]);
        let timing: Vec<&str> = survey.timing.iter().map(|f| f.name).collect();
        assert_eq!(
            timing,
            [
                "swap",
                "SMT",
                "governor",
                "boost",
                "load",
                "huge pages",
                "core dumps"
            ]
        );
        assert_eq!(survey.limits.len(), 4);
        let missing = survey.protections.iter().any(|f| f.state == State::Missing);
        assert_eq!(survey.sandbox_ready(), !missing);
        // The swap finding agrees with the machine's list of swap devices.
        let swaps = std::fs::read_to_string("/proc/swaps").unwrap_or_default();
        let swapping = swaps.lines().count() > 1;
        assert_eq!(survey.timing[0].state == State::Warning, swapping);
    }
}
