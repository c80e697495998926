//! `silknav serve`: the server's answers are the command line's `--json` answers, byte for
//! byte, one query or a batch; loopback unless `--public`; SIGTERM stops it cleanly.

use crate::support::*;
use silknav_testkit::http;
use std::io::{BufRead, BufReader};
use std::net::SocketAddr;
use std::path::Path;
use std::process::{Child, Command, Stdio};

/// A running `silknav serve`, killed when dropped if still running.
struct Served {
    child: Child,
    addr: SocketAddr,
}

impl Served {
    /// Starts `silknav serve ROOT --addr 127.0.0.1:0 ARGS` and waits for its address line.
    fn start(root: &Path, args: &[&str]) -> Served {
        let mut child = Command::new(env!("CARGO_BIN_EXE_silknav"))
            .arg("serve")
            .arg(root)
            .args(["--addr", "127.0.0.1:0"])
            .args(args)
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::piped())
            .spawn()
            .expect("the binary runs");
        let mut lines = BufReader::new(child.stderr.take().unwrap()).lines();
        let addr = loop {
            let line = lines
                .next()
                .expect("serve prints its address")
                .expect("UTF-8");
            if let Some(rest) = line.split("on http://").nth(1) {
                break rest.split('/').next().unwrap().parse().expect("an address");
            }
        };
        // Keep reading standard error so that the server never blocks on it.
        std::thread::spawn(move || lines.for_each(drop));
        Served { child, addr }
    }
}

impl Drop for Served {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// Points spread over a box, a third of them with a reference height.
fn points(bx: [f64; 4], count: usize) -> Vec<Vec<f64>> {
    let mut rng = silknav_testkit::rng::SplitMix64::new(5);
    (0..count)
        .map(|i| {
            let x = bx[0] + rng.unit() * (bx[2] - bx[0]);
            let z = bx[1] + rng.unit() * (bx[3] - bx[1]);
            match i % 3 {
                0 => vec![x, z, rng.unit() * 200.0 - 20.0],
                _ => vec![x, z],
            }
        })
        .collect()
}

/// Segments in a box, short and long.
fn segments(bx: [f64; 4], count: usize) -> Vec<Vec<f64>> {
    points(bx, count)
        .into_iter()
        .enumerate()
        .map(|(i, p)| {
            let reach = if i % 2 == 0 { 150.0 } else { 2500.0 };
            let mut rng = silknav_testkit::rng::SplitMix64::new(i as u64);
            let mut s = vec![
                p[0],
                p[1],
                p[0] + (rng.unit() - 0.5) * reach,
                p[1] + (rng.unit() - 0.5) * reach,
            ];
            s.extend(p.get(2));
            s
        })
        .collect()
}

/// The JSON request of a query's numbers under these names.
fn request(names: &[&str], numbers: &[f64]) -> String {
    let fields: Vec<String> = names
        .iter()
        .zip(numbers)
        .map(|(n, v)| format!("\"{n}\":{v}"))
        .collect();
    format!("{{{}}}", fields.join(","))
}

/// Asks the command line (a batch on standard input) and the server (a batch, and the first
/// queries alone) the same queries, and checks the answers are the same bytes. `fields` are
/// JSON fields every request carries (the options the command's flags give).
#[allow(clippy::too_many_arguments)]
fn check_same(
    dir: &Path,
    root: &Path,
    served: &Served,
    command: &[&str],
    endpoint: &str,
    names: &[&str],
    fields: &str,
    queries: &[Vec<f64>],
) {
    let lines: String = queries
        .iter()
        .map(|q| {
            let words: Vec<String> = q.iter().map(f64::to_string).collect();
            words.join(" ") + "\n"
        })
        .collect();
    let root = root.to_str().unwrap();
    let mut args = vec![command[0], root, "--json"];
    args.extend(&command[1..]);
    let cli = silknav_with_stdin(dir, &args, lines.as_bytes());
    assert_eq!(cli.code, 0, "{}", cli.stderr);
    let answers: Vec<&str> = cli.stdout.lines().collect();
    assert_eq!(answers.len(), queries.len());
    let requests: Vec<String> = queries
        .iter()
        .map(|q| {
            let numbers = request(names, q);
            match fields {
                "" => numbers,
                _ => format!("{},{fields}}}", &numbers[..numbers.len() - 1]),
            }
        })
        .collect();
    let batch = http::post(served.addr, endpoint, &format!("[{}]", requests.join(","))).unwrap();
    assert_eq!(batch.status, 200, "{}", batch.text());
    assert_eq!(
        batch.text(),
        format!("[{}]", answers.join(",")),
        "{endpoint}"
    );
    for (request, answer) in requests.iter().zip(&answers).take(5) {
        let one = http::post(served.addr, endpoint, request).unwrap();
        assert_eq!(one.text(), *answer, "{endpoint} {request}");
    }
}

/// Every query endpoint against its command, on a world; `budget_bites`: whether a budget of
/// one expansion stops some of its searches (not in a world of open ground).
fn check_all(dir: &Path, root: &Path, bx: [f64; 4], extra: &[&str], budget_bites: bool) {
    let served = Served::start(root, extra);
    let points = points(bx, 300);
    let segments = segments(bx, 200);
    let with_y = |q: &Vec<f64>, n| q.len() > n;
    let plain = |qs: &[Vec<f64>], n: usize| -> Vec<Vec<f64>> {
        qs.iter().map(|q| q[..n].to_vec()).collect()
    };
    let xz = ["x", "z", "y"];
    let seg = ["x1", "z1", "x2", "z2", "y"];
    let with_fields = |c: Vec<&str>, endpoint, names: &[&str], fields, qs: &[Vec<f64>]| {
        let mut args = c;
        args.extend(extra);
        check_same(dir, root, &served, &args, endpoint, names, fields, qs);
    };
    let command = |c, endpoint, names: &[&str], qs: &[Vec<f64>]| {
        with_fields(c, endpoint, names, "", qs);
    };
    assert!(points.iter().any(|q| with_y(q, 2)) && segments.iter().any(|q| with_y(q, 4)));
    command(vec!["cell"], "/api/cell", &xz, &points);
    command(vec!["height"], "/api/height", &xz, &points);
    command(vec!["los"], "/api/los", &seg, &segments);
    command(vec!["move"], "/api/move", &seg, &segments);
    command(vec!["snap"], "/api/snap", &xz, &points);
    command(vec!["path"], "/api/path", &seg, &plain(&segments, 4)[..60]);
    let some = &plain(&segments, 4)[..40];
    with_fields(
        vec!["path", "--exact"],
        "/api/path",
        &seg,
        r#""exact":true"#,
        some,
    );
    let clearance = ["path", "--clearance", "0.25"];
    with_fields(
        clearance.to_vec(),
        "/api/path",
        &seg,
        r#""clearance":0.25"#,
        some,
    );
    let radius = ["path", "--radius", "6"];
    with_fields(
        radius.to_vec(),
        "/api/path",
        &seg,
        r#""radius":6"#,
        &some[..15],
    );
    with_fields(
        vec!["move", "--guard", "off"],
        "/api/move",
        &seg,
        r#""guard":"off""#,
        some,
    );
    // Across the whole box: searches that need more than one expansion.
    let across = [
        vec![bx[0] + 140.0, bx[1] + 120.0, bx[2] - 100.0, bx[3] - 120.0],
        vec![bx[0] + 340.0, bx[3] - 220.0, bx[2] - 300.0, bx[1] + 220.0],
    ];
    let budgeted: Vec<Vec<f64>> = plain(&segments, 4)[..60]
        .iter()
        .chain(&across)
        .map(|q| [q.as_slice(), &[1.0]].concat())
        .collect();
    // The budget is a flag of the command, a field of the request.
    let cli_budget = ["x1", "z1", "x2", "z2", "budget"];
    let lines: Vec<Vec<f64>> = budgeted.iter().map(|q| q[..4].to_vec()).collect();
    let served_answer = http::post(
        served.addr,
        "/api/path",
        &format!(
            "[{}]",
            budgeted
                .iter()
                .map(|q| request(&cli_budget, q))
                .collect::<Vec<_>>()
                .join(",")
        ),
    )
    .unwrap();
    let input: String = lines
        .iter()
        .map(|q| format!("{} {} {} {}\n", q[0], q[1], q[2], q[3]))
        .collect();
    let root_text = root.to_str().unwrap();
    let mut args = vec!["path", root_text, "--json", "--budget", "1"];
    args.extend(extra);
    let cli = silknav_with_stdin(dir, &args, input.as_bytes());
    let answers: Vec<&str> = cli.stdout.lines().collect();
    assert_eq!(cli.stdout.contains("budget-exceeded"), budget_bites);
    assert_eq!(served_answer.text(), format!("[{}]", answers.join(",")));
}

#[test]
fn the_server_answers_as_the_command_line_byte_for_byte() {
    let dir = temp();
    let root = gen_world(dir.path(), "w", 3, "2x2");
    check_all(
        dir.path(),
        &root,
        [245_660.0, 122_780.0, 249_700.0, 126_820.0],
        &[],
        true,
    );
    check_all(
        dir.path(),
        &root,
        [245_660.0, 122_780.0, 249_700.0, 126_820.0],
        &["--terrain-only"],
        true,
    );
}

#[test]
fn objects_answer_as_the_command_line_byte_for_byte() {
    use silknav_testkit::object_world::{write_object_world, WEST};
    let dir = temp();
    let root = dir.path().join("Data");
    write_object_world(&root);
    let (x, z) = (f64::from(WEST.x()) * 1920.0, f64::from(WEST.z()) * 1920.0);
    check_all(
        dir.path(),
        &root,
        [x, z, x + 3840.0, z + 1920.0],
        &[],
        false,
    );
}

#[test]
fn only_loopback_without_public_and_limits_of_at_least_one() {
    let dir = temp();
    let root = gen_world(dir.path(), "w", 3, "1x1");
    let root = root.to_str().unwrap();
    let run = silknav(dir.path(), &["serve", root, "--addr", "0.0.0.0:0"]);
    assert_eq!(run.code, 2);
    assert!(run.error_line().contains("add --public"), "{}", run.stderr);
    let run = silknav(dir.path(), &["serve", root, "--max-batch", "0"]);
    assert_eq!(run.code, 2);
    assert!(run.error_line().contains("--max-batch"), "{}", run.stderr);
}

#[cfg(unix)]
#[test]
fn sigterm_stops_the_server_cleanly() {
    let dir = temp();
    let root = gen_world(dir.path(), "w", 3, "1x1");
    let mut served = Served::start(&root, &[]);
    assert_eq!(http::get(served.addr, "/api/health").unwrap().status, 200);
    let killed = Command::new("kill")
        .args(["-TERM", &served.child.id().to_string()])
        .status()
        .unwrap();
    assert!(killed.success());
    let status = served.child.wait().unwrap();
    assert_eq!(status.code(), Some(0), "a clean exit");
    assert!(std::net::TcpStream::connect(served.addr).is_err());
}
