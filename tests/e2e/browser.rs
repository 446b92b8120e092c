//! `duipai judge --html` opened in a real browser: headless Chromium (the distribution's
//! package) renders the page of a judged problem, takes a screenshot, and a script run in a
//! copy of the page measures what was drawn: every plot's axis ticks in seconds from the
//! bottom up, the limit and the limit × time_limit_to_tle lines with their labels, a bar a
//! test, the legend's swatches in the colours the bars and the matrix use. Ignored by `cargo
//! test` (it needs Chromium): `.ci/browser` runs it.

use std::path::{Path, PathBuf};
use std::process::Command;

use crate::util::assert_contains;

const IGNORED: &str = "needs chromium: run .ci/browser";

/// Chromium: `DUIPAI_CHROMIUM`, else `chromium` or `chromium-browser` in PATH.
fn chromium() -> PathBuf {
    if let Some(path) = std::env::var_os("DUIPAI_CHROMIUM") {
        return PathBuf::from(path);
    }
    for dir in std::env::split_paths(&std::env::var_os("PATH").unwrap_or_default()) {
        for name in ["chromium", "chromium-browser"] {
            if dir.join(name).is_file() {
                return dir.join(name);
            }
        }
    }
    panic!("Chromium was not found: {IGNORED} (apt-get install chromium)");
}

/// Runs headless Chromium on `page` with `args`; returns its stdout.
fn headless(page: &Path, args: &[&str]) -> String {
    let profile = tempfile::tempdir().unwrap();
    let out = Command::new(chromium())
        .args([
            "--headless",
            "--no-sandbox",
            "--disable-gpu",
            "--hide-scrollbars",
        ])
        .arg(format!("--user-data-dir={}", profile.path().display()))
        .args(args)
        .arg(format!("file://{}", page.display()))
        .output()
        .unwrap();
    assert!(out.status.success(), "chromium: {out:?}");
    String::from_utf8_lossy(&out.stdout).into_owned()
}

/// What the page should show, measured where it was drawn: a JSON object written into the
/// page, which `--dump-dom` prints.
const MEASURE: &str = r#"<script>
const box = e => { const r = e.getBoundingClientRect(); return [r.x, r.y, r.width, r.height]; };
const colour = e => getComputedStyle(e).fill;
const plots = [...document.querySelectorAll('svg.plot')].map(svg => ({
  ticks: [...svg.querySelectorAll('text.tick')].map(t => [t.textContent, box(t)]),
  limit: box(svg.querySelector('line.limit')),
  tle: box(svg.querySelector('line.tle')),
  labels: [...svg.querySelectorAll('text.limit-label, text.tle-label')].map(t => [t.textContent, box(t)]),
  bars: [...svg.querySelectorAll('rect.bar')].map(b => [b.classList[1], colour(b), box(b)]),
  svg: box(svg),
}));
const swatches = Object.fromEntries([...document.querySelectorAll('.legend .swatch')]
  .filter(s => s.classList.length == 2 && s.classList[1] != 'stopped')
  .map(s => [s.classList[1], [getComputedStyle(s).backgroundColor, box(s)]]));
const cells = [...document.querySelectorAll('td.AC, td.WA, td.TLE, td.RTE')]
  .map(td => [td.className, getComputedStyle(td).backgroundColor]);
const out = document.createElement('pre');
out.id = 'measured';
out.textContent = JSON.stringify({plots, swatches, cells});
document.body.appendChild(out);
</script>"#;

#[test]
#[ignore = "needs chromium: run .ci/browser"]
fn the_judge_report_renders_its_axes_limits_and_legend() {
    let dir = crate::util::problem_folder("examples/rangesum", None);
    let d = dir.path();
    // Small tests, and one where sums leave 32 bits and the naive submission times out.
    let plan = "gen rangesum 3 3 --seed 5\ngen rangesum 10 10 5 --seed 3\n\
                gen rangesum --generator big 200000 200000 1000000000 --seed 6\n\
                gen rangesum --generator big 1000 1000 9 --seed 3\n";
    std::fs::write(d.join("four.plan"), plan).unwrap();
    crate::util::with_shared_cache(d)
        .args(["judge", "--plan", "four.plan", "--html", "report.html"])
        .run()
        .success();
    let page = d.join("report.html");
    let html = std::fs::read_to_string(&page).unwrap();
    assert!(!html.contains("<script"), "the page itself runs no script");

    // The screenshot, for a person to look at; kept in the target folder.
    let shot = Path::new(env!("CARGO_TARGET_TMPDIR")).join("judge-report.png");
    headless(
        &page,
        &[
            "--window-size=1300,1500",
            &format!("--screenshot={}", shot.display()),
        ],
    );
    let png = std::fs::read(&shot).unwrap();
    assert_eq!(&png[..8], b"\x89PNG\r\n\x1a\n");
    let size = |at: usize| u32::from_be_bytes(png[at..at + 4].try_into().unwrap());
    assert_eq!((size(16), size(20)), (1300, 1500), "the screenshot's size");

    let measured_page = d.join("measured.html");
    std::fs::write(
        &measured_page,
        html.replace("</body>", &format!("{MEASURE}</body>")),
    )
    .unwrap();
    let dom = headless(&measured_page, &["--dump-dom", "--window-size=1300,1500"]);
    let start = dom.find("<pre id=\"measured\">").expect("the script ran") + 19;
    let end = start + dom[start..].find("</pre>").unwrap();
    let json = dom[start..end]
        .replace("&quot;", "\"")
        .replace("&lt;", "<")
        .replace("&gt;", ">")
        .replace("&amp;", "&");
    let measured: serde_json::Value = serde_json::from_str(&json).unwrap();
    check_plots(&measured, &html);
    check_colours(&measured);
    println!("screenshot: {}", shot.display());
}

fn numbers(value: &serde_json::Value) -> Vec<f64> {
    value
        .as_array()
        .unwrap()
        .iter()
        .map(|v| v.as_f64().unwrap())
        .collect()
}

/// Each plot: ticks in seconds, from 0 at the bottom upwards; both lines drawn across the
/// plot and labelled beside it; a bar a test.
fn check_plots(measured: &serde_json::Value, html: &str) {
    let plots = measured["plots"].as_array().unwrap();
    let submissions = html.matches("<figure>").count();
    assert_eq!(plots.len(), submissions);
    assert!(submissions >= 4, "{submissions} plots");
    for plot in plots {
        let svg = numbers(&plot["svg"]);
        let ticks = plot["ticks"].as_array().unwrap();
        assert!(ticks.len() >= 3, "{plot}");
        let mut last_y = f64::INFINITY;
        for (i, tick) in ticks.iter().enumerate() {
            let text = tick[0].as_str().unwrap();
            let b = numbers(&tick[1]);
            assert!(text.ends_with(" s"), "{text}");
            if i == 0 {
                assert_eq!(text.trim_end_matches(" s").parse::<f64>().unwrap(), 0.0);
            }
            assert!(b[2] > 0.0 && b[3] > 0.0, "tick {text} has no size");
            assert!(b[1] < last_y, "tick {text} is not above the one before");
            last_y = b[1];
        }
        for line in ["limit", "tle"] {
            let b = numbers(&plot[line]);
            assert!(
                b[2] > svg[2] * 0.4,
                "the {line} line is drawn across the plot"
            );
        }
        let labels = plot["labels"].as_array().unwrap();
        let texts: Vec<&str> = labels.iter().map(|l| l[0].as_str().unwrap()).collect();
        assert_eq!(texts.len(), 2, "{texts:?}");
        assert!(texts[0].starts_with("limit "), "{texts:?}");
        assert!(texts[1].starts_with("× 1.5 = "), "{texts:?}");
        for label in labels {
            let b = numbers(&label[1]);
            assert!(
                b[2] > 0.0 && b[0] + b[2] <= svg[0] + svg[2] + 0.5,
                "{label} leaves the plot"
            );
        }
        // The limit is drawn below the limit × 1.5.
        assert!(numbers(&plot["limit"])[1] > numbers(&plot["tle"])[1]);
        let bars = plot["bars"].as_array().unwrap();
        assert_eq!(bars.len(), 4, "a bar a test of four.plan");
    }
    assert_contains(html, "CPU seconds");
}

/// The legend's swatch of each verdict has the colour of that verdict's bars and cells.
fn check_colours(measured: &serde_json::Value) {
    let swatches = measured["swatches"].as_object().unwrap();
    for verdict in ["AC", "WA", "TLE", "RTE"] {
        let swatch = &swatches[verdict];
        assert!(
            numbers(&swatch[1])[2] > 0.0,
            "the {verdict} swatch is drawn"
        );
    }
    let colour_of = |verdict: &str| swatches[verdict][0].as_str().unwrap().to_string();
    let mut seen = std::collections::BTreeSet::new();
    for plot in measured["plots"].as_array().unwrap() {
        for bar in plot["bars"].as_array().unwrap() {
            let verdict = bar[0].as_str().unwrap();
            assert_eq!(bar[1].as_str().unwrap(), colour_of(verdict), "{bar}");
            seen.insert(verdict.to_string());
        }
    }
    assert!(
        seen.contains("AC") && seen.contains("WA") && seen.contains("TLE"),
        "{seen:?}"
    );
    let mut colours = std::collections::BTreeSet::new();
    for cell in measured["cells"].as_array().unwrap() {
        let background = cell[1].as_str().unwrap();
        assert!(!background.contains("0, 0, 0, 0"), "{cell}: no colour");
        colours.insert(cell[0].as_str().unwrap().to_string());
    }
    assert!(colours.len() >= 3, "{colours:?}");
}
