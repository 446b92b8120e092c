//! The problems of one click gathered into their batch: the extension posts a contest's
//! problems one request each, all with the batch's id and size, and they land together once
//! the last has come (or, if some never come, once the batch has waited long enough). What
//! waits is bounded: at most [`HOLD_AT_MOST`] bytes of problems in at most [`MOST_OPEN`]
//! batches; a problem past either is refused (its post is answered so), and a batch waits
//! at most its caller's wait since its last problem before what came of it lands.

use std::time::{Duration, Instant};

use super::task::Task;

/// A batch whose problems have all come, or that waited too long for the rest.
#[derive(Debug)]
pub struct Gathered {
    /// In the order they came, which is the contest's.
    pub tasks: Vec<Task>,
    /// How many the batch announced.
    pub size: u64,
}

/// The most bytes of problems the open batches hold, and the most batches open at once.
pub const HOLD_AT_MOST: usize = 64 * 1024 * 1024;
pub const MOST_OPEN: usize = 100;

struct Open {
    id: String,
    size: u64,
    tasks: Vec<Task>,
    last: Instant,
}

/// The batches still waiting for problems, and the bytes their problems hold.
#[derive(Default)]
pub struct Batches {
    open: Vec<Open>,
    held: usize,
}

/// The memory a problem holds, about: its texts and its samples.
fn weight(task: &Task) -> usize {
    let samples: usize = task
        .tests
        .iter()
        .map(|t| t.input.len() + t.output.len() + 64)
        .sum();
    task.name.len() + task.group.len() + task.url.len() + samples + 256
}

impl Batches {
    /// Adds a problem to its batch; the batch when this was its last problem. The same
    /// problem posted twice into one batch counts once. `Err` says why it is refused: the
    /// batches waiting hold too much already.
    pub fn add(&mut self, task: Task, now: Instant) -> Result<Option<Gathered>, String> {
        let (id, size) = task.batch();
        let weight = weight(&task);
        let at = self.open.iter().position(|b| b.id == id);
        let whole = size <= 1 || at.is_some_and(|at| self.open[at].tasks.len() as u64 + 1 >= size);
        if !whole && self.held + weight > HOLD_AT_MOST {
            return Err(format!(
                "{} MiB of problems already wait for the rest of their batches; post again \
                 once they have landed",
                self.held >> 20
            ));
        }
        let at = match at {
            Some(at) => at,
            None if self.open.len() >= MOST_OPEN && !whole => {
                return Err(format!(
                    "{MOST_OPEN} batches already wait for the rest of their problems; post again \
                     once they have landed"
                ));
            }
            None => {
                self.open.push(Open {
                    id,
                    size,
                    tasks: Vec::new(),
                    last: now,
                });
                self.open.len() - 1
            }
        };
        let batch = &mut self.open[at];
        batch.last = now;
        if !batch
            .tasks
            .iter()
            .any(|t| t.url == task.url && t.name == task.name)
        {
            batch.tasks.push(task);
            self.held += weight;
        }
        if self.open[at].tasks.len() as u64 >= self.open[at].size {
            let open = self.open.remove(at);
            Ok(Some(self.gathered(open)))
        } else {
            Ok(None)
        }
    }

    /// The bytes the waiting batches hold.
    pub fn held(&self) -> usize {
        self.held
    }

    /// Hands `open` on, its bytes no longer held.
    fn gathered(&mut self, open: Open) -> Gathered {
        let bytes: usize = open.tasks.iter().map(weight).sum();
        self.held = self.held.saturating_sub(bytes);
        gathered(open)
    }

    /// The batches that have waited `wait` since their last problem, with what came.
    pub fn overdue(&mut self, now: Instant, wait: Duration) -> Vec<Gathered> {
        let mut due = Vec::new();
        let mut i = 0;
        while i < self.open.len() {
            if now.duration_since(self.open[i].last) >= wait {
                let open = self.open.remove(i);
                due.push(self.gathered(open));
            } else {
                i += 1;
            }
        }
        due
    }

    /// Every batch still open, with what came: at the end, nothing received is lost.
    pub fn drain(&mut self) -> Vec<Gathered> {
        self.held = 0;
        self.open.drain(..).map(gathered).collect()
    }
}

fn gathered(open: Open) -> Gathered {
    Gathered {
        tasks: open.tasks,
        size: open.size,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::companion::task::parse_task;

    fn task(name: &str, id: &str, size: u64) -> Task {
        let json = format!(
            r#"{{"name":"{name}","group":"G","url":"u/{name}","memoryLimit":256,"timeLimit":1000,"tests":[],"batch":{{"id":"{id}","size":{size}}}}}"#
        );
        parse_task(json.as_bytes()).unwrap()
    }

    #[test]
    fn a_batch_lands_when_its_last_problem_comes() {
        let mut batches = Batches::default();
        let now = Instant::now();
        assert!(batches.add(task("A", "x", 3), now).unwrap().is_none());
        assert!(
            batches.add(task("A", "x", 3), now).unwrap().is_none(),
            "a repeat counts once"
        );
        assert!(
            batches.add(task("Z", "y", 1), now).unwrap().is_some(),
            "another batch of one"
        );
        assert!(batches.add(task("B", "x", 3), now).unwrap().is_none());
        let whole = batches.add(task("C", "x", 3), now).unwrap().unwrap();
        let names: Vec<&str> = whole.tasks.iter().map(|t| t.name.as_str()).collect();
        assert_eq!(names, ["A", "B", "C"]);
        assert!(batches.drain().is_empty());
        assert_eq!(batches.held(), 0);
    }

    /// Unfinished batches hold at most `HOLD_AT_MOST` bytes: a problem past it is refused
    /// (its batch's last problem is still taken, for it frees what its batch holds), and
    /// what lands, overdue, frees what it held.
    #[test]
    fn what_waits_is_bounded() {
        let mut batches = Batches::default();
        let now = Instant::now();
        let big = |name: &str, id: &str| {
            let mut t = task(name, id, 2);
            t.tests = vec![crate::companion::task::Sample {
                input: "1".repeat(4 << 20),
                output: String::new(),
            }];
            t
        };
        let mut taken = 0;
        let refusal = loop {
            match batches.add(big(&format!("P{taken}"), &format!("b{taken}")), now) {
                Ok(None) => taken += 1,
                Ok(Some(_)) => panic!("a batch of two landed with one problem"),
                Err(why) => break why,
            }
        };
        assert_eq!(taken, HOLD_AT_MOST / (4 << 20) - 1, "{refusal}");
        assert!(
            refusal.contains("MiB of problems already wait"),
            "{refusal}"
        );
        assert!(batches.held() <= HOLD_AT_MOST);
        // The second problem of a waiting batch completes it and is taken.
        assert!(batches.add(big("Q", "b0"), now).unwrap().is_some());
        let due = batches.overdue(now + Duration::from_secs(10), Duration::from_secs(10));
        assert_eq!(due.len(), taken - 1);
        assert_eq!(batches.held(), 0);
    }

    #[test]
    fn a_batch_missing_problems_lands_after_waiting() {
        let mut batches = Batches::default();
        let start = Instant::now();
        batches.add(task("A", "x", 2), start).unwrap();
        let wait = Duration::from_secs(5);
        assert!(
            batches
                .overdue(start + Duration::from_secs(4), wait)
                .is_empty()
        );
        let due = batches.overdue(start + Duration::from_secs(5), wait);
        assert_eq!(due.len(), 1);
        assert_eq!((due[0].tasks.len(), due[0].size), (1, 2));
    }
}
