//! The viewer in a real headless Chromium, driven through chromedriver (WebDriver): the page
//! loads without console errors, hovering shows the cell under the cursor, two clicks draw
//! the path the API answers, and the line-of-sight tool answers as the API does.
//!
//! Needs Debian's `chromium` and `chromium-driver`, so it runs only when asked:
//! `cargo test -p silknav-server -- --ignored` (CI installs both and runs every ignored test).
//! Asked without them, it fails saying so, never skips. `SILKNAV_SCREENSHOT=docs/images/viewer.png` also saves a
//! screenshot of the viewer on the demo world with a path drawn (the README's picture).

use crate::support::*;
use fantoccini::actions::{InputSource, MouseActions, PointerAction, MOUSE_BUTTON_LEFT};
use fantoccini::wd::WebDriverCompatibleCommand;
use fantoccini::{Client, ClientBuilder, Locator};
use serde_json::{json as value, Value};
use silknav::{PathOptions, PathScratch, Position, Surface, World};
use silknav_server::Limits;
use std::net::{SocketAddr, TcpListener, TcpStream};
use std::path::PathBuf;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

/// The first of `names` found on the PATH.
fn find_program(names: &[&str]) -> Option<PathBuf> {
    let path = std::env::var_os("PATH")?;
    std::env::split_paths(&path)
        .flat_map(|dir| names.iter().map(move |n| dir.join(n)))
        .find(|p| p.is_file())
}

/// chromedriver on a free loopback port, killed when dropped.
struct Driver {
    child: Child,
    port: u16,
    profile: tempfile::TempDir,
}

impl Driver {
    fn start() -> Driver {
        let missing = "the viewer's browser test needs Chromium and chromedriver: \
                       apt-get install -y chromium chromium-driver";
        let driver = find_program(&["chromedriver"]).expect(missing);
        find_program(&["chromium", "chromium-browser"]).expect(missing);
        let port = TcpListener::bind("127.0.0.1:0")
            .unwrap()
            .local_addr()
            .unwrap()
            .port();
        let child = Command::new(driver)
            .arg(format!("--port={port}"))
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .expect("chromedriver starts");
        let deadline = Instant::now() + Duration::from_secs(20);
        while TcpStream::connect(("127.0.0.1", port)).is_err() {
            assert!(Instant::now() < deadline, "chromedriver did not listen");
            std::thread::sleep(Duration::from_millis(50));
        }
        Driver {
            child,
            port,
            profile: tempfile::tempdir().unwrap(),
        }
    }

    async fn client(&self) -> Client {
        let browser = find_program(&["chromium", "chromium-browser"]).unwrap();
        let options = value!({
            "binary": browser,
            // The machine's network is closed: without the background-networking switches
            // Chromium keeps trying to reach its services.
            "args": [
                "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic",
                "--no-first-run", "--disable-background-networking",
                "--disable-component-update", "--disable-sync",
                "--window-size=1280,800", "--force-device-scale-factor=1",
                format!("--user-data-dir={}", self.profile.path().display()),
            ],
        });
        let mut caps = serde_json::Map::new();
        caps.insert("goog:chromeOptions".into(), options);
        caps.insert("goog:loggingPrefs".into(), value!({"browser": "ALL"}));
        let connector = hyper_util::client::legacy::connect::HttpConnector::new();
        ClientBuilder::new(connector)
            .capabilities(caps)
            .connect(&format!("http://127.0.0.1:{}", self.port))
            .await
            .expect("a WebDriver session")
    }
}

impl Drop for Driver {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// chromedriver's browser log: the console messages and failed loads since the last call.
#[derive(Debug)]
struct BrowserLog;

impl WebDriverCompatibleCommand for BrowserLog {
    fn endpoint(
        &self,
        base: &url::Url,
        session: Option<&str>,
    ) -> Result<url::Url, url::ParseError> {
        base.join(&format!("session/{}/se/log", session.unwrap_or_default()))
    }

    fn method_and_body(&self, _: &url::Url) -> (::http::Method, Option<String>) {
        (::http::Method::POST, Some(r#"{"type":"browser"}"#.into()))
    }
}

/// The browser's log entries since the last call.
async fn log(client: &Client) -> Vec<Value> {
    match client.issue_cmd(BrowserLog).await.expect("the browser log") {
        Value::Array(entries) => entries,
        other => panic!("unexpected log {other}"),
    }
}

/// Fails on any console error or failed load. Chromium's advice on the test's own pixel
/// readbacks (`getImageData` called more than once) is not the viewer's.
async fn no_errors(client: &Client, when: &str) {
    let errors: Vec<Value> = log(client)
        .await
        .into_iter()
        .filter(|e| e["level"] == "SEVERE" || e["level"] == "WARNING")
        .filter(|e| {
            !e["message"]
                .as_str()
                .is_some_and(|m| m.contains("Multiple readback operations using getImageData"))
        })
        .collect();
    assert!(errors.is_empty(), "{when}: console errors {errors:#?}");
}

/// Runs a script and returns its value.
async fn eval(client: &Client, script: &str) -> Value {
    client.execute(script, vec![]).await.expect(script)
}

/// Waits until the script returns true.
async fn wait_for(client: &Client, script: &str) {
    let deadline = Instant::now() + Duration::from_secs(30);
    while eval(client, script).await != Value::Bool(true) {
        assert!(Instant::now() < deadline, "timed out waiting for {script}");
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
}

/// The screen position of a world point, as the viewer maps it.
async fn screen(client: &Client, [x, z]: [f64; 2]) -> (f64, f64) {
    let p = eval(
        client,
        &format!("return window.silknav.toScreen({x}, {z});"),
    )
    .await;
    (p[0].as_f64().unwrap(), p[1].as_f64().unwrap())
}

async fn move_to(client: &Client, (x, y): (f64, f64)) {
    let mouse = MouseActions::new("mouse".into()).then(PointerAction::MoveTo {
        duration: None,
        x: x.round(),
        y: y.round(),
    });
    client.perform_actions(mouse).await.unwrap();
}

async fn click_at(client: &Client, at: (f64, f64)) {
    move_to(client, at).await;
    let mouse = MouseActions::new("mouse".into())
        .then(PointerAction::Down {
            button: MOUSE_BUTTON_LEFT,
        })
        .then(PointerAction::Up {
            button: MOUSE_BUTTON_LEFT,
        });
    client.perform_actions(mouse).await.unwrap();
}

/// A data attribute of an element, as text.
async fn data(client: &Client, id: &str, key: &str) -> String {
    let v = eval(
        client,
        &format!("return document.getElementById('{id}').dataset.{key} ?? null;"),
    )
    .await;
    v.as_str().map(str::to_owned).unwrap_or_default()
}

/// The centre of the tile under a point: away from tile sides, where hover positions are
/// decided by half a pixel.
fn tile_centre([x, z]: [f64; 2]) -> [f64; 2] {
    [
        (x / 20.0).floor() * 20.0 + 10.0,
        (z / 20.0).floor() * 20.0 + 10.0,
    ]
}

/// Two open points a path joins, far enough apart to draw a visible line.
fn connected_pair(world: &World) -> ([f64; 2], [f64; 2]) {
    let points = open_points(world, 200);
    let paths = silknav::PathIndex::build(world);
    let mut scratch = PathScratch::new();
    for a in &points {
        for b in &points {
            let far = (a[0] - b[0]).hypot(a[1] - b[1]) > 2500.0;
            let q = silknav::query::SegmentQuery::new(a[0], a[1], b[0], b[1]);
            if far
                && silknav::query::path(world, &paths, q, &PathOptions::default(), &mut scratch)
                    .is_ok_and(|p| p.waypoints.len() > 2)
            {
                return (*a, *b);
            }
        }
    }
    panic!("no connected pair with a turn");
}

#[test]
#[ignore = "needs chromium and chromedriver: cargo test -p silknav-server -- --ignored"]
fn the_viewer_hovers_draws_paths_and_casts_lines_as_the_api_answers() {
    let world = demo_world();
    let server = serve(Limits::default());
    let addr = server.addr();
    let driver = Driver::start();
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .unwrap();
    runtime.block_on(async {
        let client = driver.client().await;
        check_viewer(&client, addr, &world).await;
        client.close().await.unwrap();
    });
}

async fn check_viewer(client: &Client, addr: SocketAddr, world: &World) {
    client.goto(&format!("http://{addr}/")).await.unwrap();
    wait_for(client, "return document.body.dataset.ready === 'true' && document.body.dataset.tilesPending === '0';").await;
    let title = client
        .find(Locator::Css("#world"))
        .await
        .unwrap()
        .text()
        .await
        .unwrap();
    assert!(title.starts_with("9 regions"), "{title}");
    no_errors(client, "after loading").await;

    // Hover: the region and cell under the cursor are the API's and the library's.
    let target = tile_centre(open_points(world, 1)[0]);
    move_to(client, screen(client, target).await).await;
    wait_for(
        client,
        "return document.getElementById('hover').dataset.region !== undefined;",
    )
    .await;
    let (x, z): (f64, f64) = (
        data(client, "hover", "x").await.parse().unwrap(),
        data(client, "hover", "z").await.parse().unwrap(),
    );
    let ppu = eval(client, "return window.silknav.view.ppu;")
        .await
        .as_f64()
        .unwrap();
    assert!((x - target[0]).abs() <= 1.0 / ppu && (z - target[1]).abs() <= 1.0 / ppu);
    let cell = world
        .cell_at(Position::from_world(x, z).unwrap(), Surface::Highest)
        .unwrap();
    assert_eq!(
        data(client, "hover", "region").await,
        cell.region.to_string()
    );
    assert_eq!(data(client, "hover", "cell").await, cell.cell.to_string());
    let api = json(&post(addr, "/api/cell", &format!(r#"{{"x":{x},"z":{z}}}"#)));
    assert_eq!(api["cell"], cell.cell);
    let shown = client
        .find(Locator::Id("hover"))
        .await
        .unwrap()
        .text()
        .await
        .unwrap();
    assert!(
        shown.contains(&format!("region {} · cell {}", cell.region, cell.cell)),
        "{shown}"
    );

    // Two clicks: the path the API answers, drawn, its length and waypoints listed.
    let (a, b) = connected_pair(world);
    let ends = use_tool(client, a, b).await;
    let body = format!(
        r#"{{"x1":{},"z1":{},"x2":{},"z2":{}}}"#,
        ends[0], ends[1], ends[2], ends[3]
    );
    let api = json(&post(addr, "/api/path", &body));
    let length: f64 = data(client, "result", "length").await.parse().unwrap();
    assert_eq!(Some(length), api["length"].as_f64(), "{api}");
    let items = client.find_all(Locator::Css("#result li")).await.unwrap();
    assert_eq!(items.len(), api["waypoints"].as_array().unwrap().len());
    // Each waypoint is listed with its height, where it has one.
    let heights = api["heights"].as_array().unwrap();
    for (item, height) in items.iter().zip(heights) {
        let text = item.text().await.unwrap();
        let shown = text
            .split_once(", height ")
            .map(|(_, h)| h.parse::<f64>().unwrap());
        match height.as_f64() {
            // Rounded to three decimals.
            Some(h) => assert!(shown.is_some_and(|s| (s - h).abs() <= 5e-4), "{text}: {h}"),
            None => assert_eq!(shown, None, "{text}"),
        }
    }
    assert!(heights.iter().any(|h| !h.is_null()), "{api}");
    // The line is drawn: the middle of its first leg has the path's colour.
    assert_first_leg_drawn(client, &api).await;
    if let Some(path) = std::env::var_os("SILKNAV_SCREENSHOT") {
        std::fs::write(&path, client.screenshot().await.unwrap()).unwrap();
    }

    // Line of sight: the API's answer for the clicked pair.
    client
        .find(Locator::Css("input[name=tool][value=los]"))
        .await
        .unwrap()
        .click()
        .await
        .unwrap();
    let (c, d) = (open_points(world, 3)[1], open_points(world, 3)[2]);
    click_at(client, screen(client, c).await).await;
    click_at(client, screen(client, d).await).await;
    wait_for(client, "return document.getElementById('result').dataset.tool === 'los' && document.getElementById('result').dataset.state === 'done';").await;
    let ends: Vec<f64> = futures_join(client, ["x1", "z1", "x2", "z2"]).await;
    let body = format!(
        r#"{{"x1":{},"z1":{},"x2":{},"z2":{}}}"#,
        ends[0], ends[1], ends[2], ends[3]
    );
    let api = json(&post(addr, "/api/los", &body));
    assert_eq!(
        data(client, "result", "clear").await,
        api["clear"].to_string()
    );
    no_errors(client, "after the tools").await;
    check_dungeon_floor(client, addr).await;
}

/// The map list's dungeon floor: the cave's lowest floor replaces the world, hovering shows
/// the dungeon's cell, and two clicks draw the path the API answers inside the dungeon.
async fn check_dungeon_floor(client: &Client, addr: SocketAddr) {
    client
        .find(Locator::Css("input[name=tool][value=path]"))
        .await
        .unwrap()
        .click()
        .await
        .unwrap();
    eval(
        client,
        "const s = document.getElementById('map-select'); s.value = '2:0'; \
         s.dispatchEvent(new Event('change')); return true;",
    )
    .await;
    wait_for(client, "return document.body.dataset.map === '2:0';").await;
    let y: f64 = eval(
        client,
        "return Number(document.querySelector('#map-select option[value=\"2:0\"]').dataset.y);",
    )
    .await
    .as_f64()
    .unwrap();

    // Hover over the middle of a block of the lowest floor.
    move_to(client, screen(client, [-75.0, -75.0]).await).await;
    wait_for(
        client,
        "return document.getElementById('hover').dataset.region === '8002';",
    )
    .await;

    let (a, b) = ([-100.0, -100.0], [100.0, 100.0]);
    let ends = use_tool(client, a, b).await;
    let body = format!(
        r#"{{"x1":{},"z1":{},"x2":{},"z2":{},"dungeon":2,"y":{y}}}"#,
        ends[0], ends[1], ends[2], ends[3]
    );
    let api = json(&post(addr, "/api/path", &body));
    let length: f64 = data(client, "result", "length").await.parse().unwrap();
    assert_eq!(Some(length), api["length"].as_f64(), "{api}");
    assert_first_leg_drawn(client, &api).await;

    // Back to the world.
    eval(
        client,
        "const s = document.getElementById('map-select'); s.value = ''; \
         s.dispatchEvent(new Event('change')); return true;",
    )
    .await;
    wait_for(client, "return document.body.dataset.map === 'world';").await;
    no_errors(client, "after the dungeon floor").await;
}

/// The viewer draws the path `api` answered: the middle of its first leg has the path's
/// colour.
async fn assert_first_leg_drawn(client: &Client, api: &Value) {
    let w = &api["waypoints"];
    let mid = [
        (w[0][0].as_f64().unwrap() + w[1][0].as_f64().unwrap()) / 2.0,
        (w[0][1].as_f64().unwrap() + w[1][1].as_f64().unwrap()) / 2.0,
    ];
    let (mx, my) = screen(client, mid).await;
    let pixel = eval(client, &format!(
        "return Array.from(document.getElementById('map').getContext('2d').getImageData({}, {}, 1, 1).data);",
        mx.floor(), my.floor()
    )).await;
    assert_eq!(
        pixel,
        value!([0, 183, 255, 255]),
        "the path's colour at {mx},{my}"
    );
}

/// Clicks the tool's two points and waits for its answer; the ends the result says it asked
/// for (x1, z1, x2, z2).
async fn use_tool(client: &Client, a: [f64; 2], b: [f64; 2]) -> Vec<f64> {
    click_at(client, screen(client, a).await).await;
    click_at(client, screen(client, b).await).await;
    wait_for(
        client,
        "return document.getElementById('result').dataset.state === 'done';",
    )
    .await;
    futures_join(client, ["x1", "z1", "x2", "z2"]).await
}

/// Several numeric data attributes of the result.
async fn futures_join<const N: usize>(client: &Client, keys: [&str; N]) -> Vec<f64> {
    let mut out = Vec::new();
    for k in keys {
        out.push(data(client, "result", k).await.parse().unwrap());
    }
    out
}
