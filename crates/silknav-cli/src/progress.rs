//! Progress lines on standard error, for the steps that can take a while: generating, loading,
//! reading, rendering.
//!
//! Nothing shows during the first second, so that quick commands stay quiet and their standard
//! error holds only what matters. After that, on a terminal, one line is redrawn in place
//! (`\r`, at most ten times a second) and finished with the time taken. When standard error is
//! not a terminal (a log, a pipe, a test), a step that took more than a second gets a single
//! line when it is done, and there are no `\r` updates to garble the log.

use std::io::{self, IsTerminal, Write};
use std::sync::mpsc::{self, RecvTimeoutError};
use std::sync::{Mutex, MutexGuard, PoisonError};
use std::time::{Duration, Instant};

/// How long a step may take before it gets a progress line.
const QUIET: Duration = Duration::from_secs(1);
/// The shortest time between two redraws on a terminal.
const REDRAW: Duration = Duration::from_millis(100);

/// The progress of one step. The line is finished when the value is dropped, also when the
/// step fails, so that an error message never starts in the middle of a progress line.
pub struct Progress {
    label: String,
    /// What is counted (`regions`, `files`); empty for steps that only show the time.
    unit: &'static str,
    start: Instant,
    terminal: bool,
    state: Mutex<State>,
}

#[derive(Default)]
struct State {
    done: usize,
    total: usize,
    /// When the line was last drawn on the terminal; `None` before the first time.
    drawn: Option<Instant>,
    /// Characters of the line last drawn, to blank what a shorter line leaves behind.
    width: usize,
}

impl Progress {
    /// Starts a step that counts `unit`s (`update` reports them).
    pub fn counting(label: impl Into<String>, unit: &'static str) -> Progress {
        Progress {
            label: label.into(),
            unit,
            start: Instant::now(),
            terminal: io::stderr().is_terminal(),
            state: Mutex::new(State::default()),
        }
    }

    /// Runs `work` as a step that reports no counts: the line shows the time it has taken.
    pub fn timed<T>(label: impl Into<String>, work: impl FnOnce() -> T) -> T {
        let progress = Progress::counting(label, "");
        if !progress.terminal {
            return work();
        }
        // The work runs here; a second thread redraws the line until the work is done and the
        // channel's sender is dropped.
        std::thread::scope(|scope| {
            let (done, wait) = mpsc::channel::<()>();
            let shown = &progress;
            scope.spawn(move || {
                while let Err(RecvTimeoutError::Timeout) = wait.recv_timeout(REDRAW) {
                    shown.update(0, 0);
                }
            });
            let result = work();
            drop(done);
            result
        })
    }

    /// Records that `done` of `total` are done; may be called from several threads, in any
    /// order (the highest count wins).
    pub fn update(&self, done: usize, total: usize) {
        let mut state = self.lock();
        state.done = state.done.max(done);
        state.total = total;
        if !self.terminal {
            return;
        }
        let now = Instant::now();
        let elapsed = now.duration_since(self.start);
        if elapsed < QUIET || state.drawn.is_some_and(|t| now.duration_since(t) < REDRAW) {
            return;
        }
        state.drawn = Some(now);
        let line = line(&self.label, self.unit, state.done, state.total, elapsed);
        draw(&mut state, &line, true, false);
    }

    fn lock(&self) -> MutexGuard<'_, State> {
        // A panic elsewhere cannot leave the counts in a state worse than slightly stale.
        self.state.lock().unwrap_or_else(PoisonError::into_inner)
    }
}

impl Drop for Progress {
    fn drop(&mut self) {
        let elapsed = self.start.elapsed();
        let terminal = self.terminal;
        let (label, unit) = (self.label.clone(), self.unit);
        let mut state = self.lock();
        let shown = if terminal {
            state.drawn.is_some()
        } else {
            elapsed >= QUIET
        };
        if shown {
            let line = line(&label, unit, state.done, state.total, elapsed);
            draw(&mut state, &line, terminal, true);
        }
    }
}

/// Writes the line: on a terminal over the previous one, and finished with a line break when
/// the step is done.
fn draw(state: &mut State, line: &str, terminal: bool, finish: bool) {
    let blank = state.width.saturating_sub(line.chars().count());
    state.width = line.chars().count();
    let start = if terminal { "\r" } else { "" };
    let end = if finish { "\n" } else { "" };
    // Progress is a courtesy: a failing standard error must not stop the work.
    let _ = write!(io::stderr().lock(), "{start}{line}{:blank$}{end}", "");
}

/// `generating: 3/9 regions, 1.2 s`, or `rendering world.png: 1.2 s` without counts.
fn line(label: &str, unit: &str, done: usize, total: usize, elapsed: Duration) -> String {
    let seconds = elapsed.as_secs_f64();
    if unit.is_empty() {
        format!("{label}: {seconds:.1} s")
    } else {
        format!("{label}: {done}/{total} {unit}, {seconds:.1} s")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lines_with_and_without_counts() {
        let t = Duration::from_millis(1240);
        assert_eq!(
            line("generating", "regions", 3, 9, t),
            "generating: 3/9 regions, 1.2 s"
        );
        assert_eq!(
            line("rendering a.png", "", 0, 0, t),
            "rendering a.png: 1.2 s"
        );
    }

    #[test]
    fn counts_only_grow() {
        let p = Progress::counting("loading", "files");
        p.update(5, 9);
        p.update(3, 9);
        let state = p.lock();
        assert_eq!((state.done, state.total), (5, 9));
    }

    #[test]
    fn timed_work_returns_its_value() {
        assert_eq!(Progress::timed("adding", || 2 + 2), 4);
    }
}
