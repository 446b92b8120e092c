//! The problems of one click gathered into their batch: the extension posts a contest's
//! problems one request each, all with the batch's id and size, and they land together once
//! the last has come (or, if some never come, once the batch has waited long enough).

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

struct Open {
    id: String,
    size: u64,
    tasks: Vec<Task>,
    last: Instant,
}

/// The batches still waiting for problems.
#[derive(Default)]
pub struct Batches {
    open: Vec<Open>,
}

impl Batches {
    /// Adds a problem to its batch; the batch when this was its last problem. The same
    /// problem posted twice into one batch counts once.
    pub fn add(&mut self, task: Task, now: Instant) -> Option<Gathered> {
        let (id, size) = task.batch();
        let at = match self.open.iter().position(|b| b.id == id) {
            Some(at) => at,
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
        }
        (batch.tasks.len() as u64 >= batch.size).then(|| gathered(self.open.remove(at)))
    }

    /// The batches that have waited `wait` since their last problem, with what came.
    pub fn overdue(&mut self, now: Instant, wait: Duration) -> Vec<Gathered> {
        let mut due = Vec::new();
        let mut i = 0;
        while i < self.open.len() {
            if now.duration_since(self.open[i].last) >= wait {
                due.push(gathered(self.open.remove(i)));
            } else {
                i += 1;
            }
        }
        due
    }

    /// Every batch still open, with what came: at the end, nothing received is lost.
    pub fn drain(&mut self) -> Vec<Gathered> {
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
        assert!(batches.add(task("A", "x", 3), now).is_none());
        assert!(
            batches.add(task("A", "x", 3), now).is_none(),
            "a repeat counts once"
        );
        assert!(
            batches.add(task("Z", "y", 1), now).is_some(),
            "another batch of one"
        );
        assert!(batches.add(task("B", "x", 3), now).is_none());
        let whole = batches.add(task("C", "x", 3), now).unwrap();
        let names: Vec<&str> = whole.tasks.iter().map(|t| t.name.as_str()).collect();
        assert_eq!(names, ["A", "B", "C"]);
        assert!(batches.drain().is_empty());
    }

    #[test]
    fn a_batch_missing_problems_lands_after_waiting() {
        let mut batches = Batches::default();
        let start = Instant::now();
        batches.add(task("A", "x", 2), start);
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
