//! The limits: each refused with its status and a JSON error naming it; slow and oversized
//! clients refused without holding up the others; a graceful stop.

use crate::support::*;
use silknav::PathOptions;
use silknav_server::Limits;
use std::io::{ErrorKind, Read, Write};
use std::time::Duration;

/// The error JSON of a refusal over `limit`, checked to name it.
fn refused(r: &Response, status: u16, limit: &str) -> serde_json::Value {
    assert_eq!(r.status, status, "{}", r.text());
    let j = json(r);
    assert_eq!(j["error"], "limit", "{j}");
    assert_eq!(j["limit"], limit, "{j}");
    j
}

/// A client that sends the head of a request with a 100-byte body and 10 bytes of it, then
/// waits.
fn slow_client(addr: std::net::SocketAddr) -> Connection {
    let mut c = Connection::open(addr, Duration::from_secs(30)).unwrap();
    let head = "POST /api/cell HTTP/1.1\r\nhost: x\r\ncontent-type: application/json\r\ncontent-length: 100\r\n\r\n{\"x\":1,\"z\"";
    c.stream().write_all(head.as_bytes()).unwrap();
    c
}

/// Whether an answer has arrived on the connection (waiting at most 100 ms).
fn answered(c: &mut Connection) -> bool {
    let stream = c.stream();
    stream
        .set_read_timeout(Some(Duration::from_millis(100)))
        .unwrap();
    let mut byte = [0u8; 1];
    let arrived = match stream.peek(&mut byte) {
        Ok(n) => n > 0,
        Err(e) if matches!(e.kind(), ErrorKind::WouldBlock | ErrorKind::TimedOut) => false,
        Err(e) => panic!("{e}"),
    };
    stream
        .set_read_timeout(Some(Duration::from_secs(30)))
        .unwrap();
    arrived
}

#[test]
fn an_oversized_body_is_refused_by_its_length_or_as_it_grows() {
    let limits = Limits {
        max_body: 1000,
        ..Limits::default()
    };
    let server = serve(limits);
    let body = format!("[{}]", vec![r#"{"x":1,"z":2}"#; 80].join(","));
    assert!(body.len() > 1000);
    let j = refused(&post(server.addr(), "/api/cell", &body), 413, "max-body");
    assert_eq!(j["max"], 1000);
    // A declared gigabyte is refused before any of it is sent.
    let mut c = Connection::open(server.addr(), Duration::from_secs(30)).unwrap();
    c.stream()
        .write_all(b"POST /api/cell HTTP/1.1\r\nhost: x\r\ncontent-length: 1000000000\r\n\r\n")
        .unwrap();
    refused(&c.read_response().unwrap(), 413, "max-body");
    // Without a declared length (chunked), refused once past the limit.
    let mut c = Connection::open(server.addr(), Duration::from_secs(30)).unwrap();
    let chunk = format!("{:x}\r\n{body}\r\n0\r\n\r\n", body.len());
    let head = "POST /api/cell HTTP/1.1\r\nhost: x\r\ntransfer-encoding: chunked\r\n\r\n";
    c.stream().write_all(head.as_bytes()).unwrap();
    c.stream().write_all(chunk.as_bytes()).unwrap();
    refused(&c.read_response().unwrap(), 413, "max-body");
    // A body within the limit is answered.
    assert_eq!(
        post(server.addr(), "/api/cell", r#"{"x":1,"z":2}"#).status,
        200
    );
}

#[test]
fn batches_and_budgets_over_the_limits_are_refused() {
    let limits = Limits {
        max_batch: 10,
        max_budget: 50,
        ..Limits::default()
    };
    let server = serve(limits);
    let batch = |n: usize| format!("[{}]", vec![r#"{"x":1,"z":2}"#; n].join(","));
    assert_eq!(post(server.addr(), "/api/height", &batch(10)).status, 200);
    let j = refused(
        &post(server.addr(), "/api/height", &batch(11)),
        413,
        "max-batch",
    );
    assert_eq!(j["max"], 10);
    let path = |budget: u64| {
        format!(
            r#"[{{"x1":246000,"z1":123000,"x2":251000,"z2":128000}},{{"x1":246000,"z1":123000,"x2":251000,"z2":128000,"budget":{budget}}}]"#
        )
    };
    let j = refused(
        &post(server.addr(), "/api/path", &path(51)),
        400,
        "max-budget",
    );
    assert!(
        j["message"].as_str().unwrap().starts_with("[1].budget"),
        "{j}"
    );
    assert_eq!(post(server.addr(), "/api/path", &path(50)).status, 200);
    let snap = |d: f64| format!(r#"{{"x":246000,"z":123000,"max_distance":{d}}}"#);
    assert_eq!(post(server.addr(), "/api/snap", &snap(1920.0)).status, 200);
    let j = refused(
        &post(server.addr(), "/api/snap", &snap(1920.5)),
        400,
        "max-snap-distance",
    );
    assert_eq!(j["max"], 1920);
}

#[test]
fn a_path_without_a_budget_gets_the_servers() {
    let world = demo_world();
    let paths = silknav::PathIndex::build(&world);
    let points = open_points(&world, 40);
    let server = serve(Limits {
        max_budget: 2,
        ..Limits::default()
    });
    let mut exceeded = 0;
    for pair in points.windows(2) {
        let q = silknav::query::SegmentQuery::new(pair[0][0], pair[0][1], pair[1][0], pair[1][1]);
        let mut scratch = silknav::PathScratch::with_budget(2);
        let path = silknav::query::path(&world, &paths, q, &PathOptions::default(), &mut scratch);
        exceeded += usize::from(path == Err(silknav::PathError::BudgetExceeded));
        let body = format!(
            r#"{{"x1":{},"z1":{},"x2":{},"z2":{}}}"#,
            pair[0][0], pair[0][1], pair[1][0], pair[1][1]
        );
        let expected = serde_json::to_string(&silknav::json::path(&world, &path)).unwrap();
        assert_eq!(post(server.addr(), "/api/path", &body).text(), expected);
    }
    assert!(exceeded > 0, "some searches need more than two expansions");
}

#[test]
fn a_slow_client_times_out_and_does_not_hold_up_the_others() {
    // Long enough that the others' 50 queries are surely answered first, even in a debug
    // build on a busy machine.
    let server = serve(Limits {
        timeout: Duration::from_secs(5),
        ..Limits::default()
    });
    let mut slow: Vec<Connection> = (0..4).map(|_| slow_client(server.addr())).collect();
    let world = demo_world();
    for [x, z] in open_points(&world, 50) {
        let r = post(
            server.addr(),
            "/api/cell",
            &format!(r#"{{"x":{x},"z":{z}}}"#),
        );
        assert_eq!(r.status, 200);
    }
    for c in &mut slow {
        assert!(!answered(c), "the slow clients are still waiting");
    }
    for c in &mut slow {
        let j = refused(&c.read_response().unwrap(), 408, "timeout");
        assert_eq!(j["max"], 5);
    }
}

#[test]
fn requests_over_the_concurrency_limit_are_refused_at_once() {
    let server = serve(Limits {
        max_concurrent: 2,
        timeout: Duration::from_secs(2),
        ..Limits::default()
    });
    let mut slow: Vec<Connection> = (0..2).map(|_| slow_client(server.addr())).collect();
    // Both slow requests hold their places once the server has read their heads. A probe
    // under way when a slow head arrives takes that place, and the slow request is refused
    // at once: it is replaced, so that both places end up held by slow requests.
    let mut tries = 0;
    let refusal = loop {
        let r = post(server.addr(), "/api/cell", r#"{"x":1,"z":2}"#);
        if r.status != 200 || tries > 100 {
            break r;
        }
        for c in &mut slow {
            if answered(c) {
                *c = slow_client(server.addr());
            }
        }
        tries += 1;
        std::thread::sleep(Duration::from_millis(20));
    };
    let j = refused(&refusal, 429, "max-concurrent");
    assert_eq!(j["max"], 2);
    for c in &mut slow {
        refused(&c.read_response().unwrap(), 408, "timeout");
    }
    assert_eq!(
        post(server.addr(), "/api/cell", r#"{"x":1,"z":2}"#).status,
        200
    );
}

#[test]
fn stopping_finishes_the_requests_under_way() {
    let world = demo_world();
    let server = serve(Limits::default());
    let addr = server.addr();
    let points = open_points(&world, 201);
    let batch: Vec<String> = points
        .windows(2)
        .map(|p| {
            format!(
                r#"{{"x1":{},"z1":{},"x2":{},"z2":{}}}"#,
                p[0][0], p[0][1], p[1][0], p[1][1]
            )
        })
        .collect();
    let mut c = Connection::open(addr, Duration::from_secs(60)).unwrap();
    assert_eq!(c.request("GET", "/api/health", None).unwrap().status, 200);
    let body = format!("[{}]", batch.join(","));
    let head = format!(
        "POST /api/path HTTP/1.1\r\nhost: x\r\ncontent-length: {}\r\n\r\n",
        body.len()
    );
    c.stream().write_all(head.as_bytes()).unwrap();
    c.stream().write_all(body.as_bytes()).unwrap();
    // Time for the server to read the request before it is told to stop.
    std::thread::sleep(Duration::from_millis(200));
    let stopper = std::thread::spawn(move || server.stop());
    let r = c.read_response().unwrap();
    assert_eq!(r.status, 200);
    assert_eq!(json(&r).as_array().unwrap().len(), 200);
    stopper.join().unwrap().unwrap();
    // The connection is closed and nothing listens any more.
    let mut rest = Vec::new();
    let _ = c.stream().read_to_end(&mut rest);
    assert!(rest.is_empty());
    assert!(std::net::TcpStream::connect(addr).is_err());
}
