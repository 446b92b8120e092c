//! The self-contained HTML page of `duipai judge --html`: the time limit and what the format's
//! rule says of it, a legend of the verdicts' colours and of the lines, the matrix (a coloured
//! cell a run, its CPU time in it), and a plot a submission: a bar a test, its CPU time on an
//! axis in seconds, against the limit and the limit × `time_limit_to_tle`, both labelled.
//! Nothing is fetched: no script, no font, no style sheet from elsewhere.

use std::fmt::Write;

use super::matrix::{expected_code, got, limit_lines};
use crate::submissions::{Judged, Multipliers, Outcome, Row};

/// The verdicts' colours, and what each covers.
const VERDICTS: [(Outcome, &str, &str); 5] = [
    (Outcome::AC, "#2e9e44", "accepted"),
    (
        Outcome::WA,
        "#d13b3b",
        "wrong answer (a presentation error too)",
    ),
    (Outcome::TLE, "#d9a400", "time limit exceeded"),
    (
        Outcome::RTE,
        "#9b3fc2",
        "run-time error (a memory or output limit too)",
    ),
    (Outcome::FAIL, "#555555", "the checker or interactor failed"),
];

/// A plot's size and margins, in pixels.
const WIDTH: f64 = 560.0;
const HEIGHT: f64 = 170.0;
const LEFT: f64 = 52.0;
const RIGHT: f64 = 118.0;
const TOP: f64 = 10.0;
const BOTTOM: f64 = 30.0;

/// The page.
pub fn page(judged: &Judged, title: &str) -> String {
    let limit = &judged.limit;
    let tle = limit.in_force.as_secs_f64() * limit.multipliers.time_limit_to_tle;
    let top = judged
        .rows
        .iter()
        .flat_map(|r| r.cells.iter().map(|c| c.cpu.as_secs_f64()))
        .fold(tle * 1.1, f64::max);
    let scale = Scale::up_to(top);
    let mut page = format!(
        "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">\
         <title>{0}</title><style>{1}</style></head><body>\n<h1>{0}</h1>\n",
        escape(title),
        style()
    );
    page.push_str("<section class=\"limit\"><h2>Time limit</h2><p>");
    let lines: Vec<String> = limit_lines(limit).iter().map(|l| escape(l)).collect();
    page.push_str(&lines.join("<br>"));
    page.push_str("</p></section>\n");
    page.push_str(&legend(
        limit.in_force.as_secs_f64(),
        tle,
        &limit.multipliers,
    ));
    page.push_str(&matrix(judged));
    page.push_str("<section class=\"plots\"><h2>CPU time of every run</h2>\n");
    for row in &judged.rows {
        page.push_str(&figure(row, judged, &scale, tle));
    }
    page.push_str("</section>\n</body></html>\n");
    page
}

/// The legend: a swatch a verdict, and the two lines (one for a package's own limit, which
/// has no margin: the two are one).
fn legend(limit: f64, tle: f64, multipliers: &Multipliers) -> String {
    let mut html = String::from("<section class=\"legend\"><h2>Legend</h2><ul>\n");
    for (outcome, _, meaning) in VERDICTS {
        let _ = writeln!(
            html,
            "<li><span class=\"swatch {0}\"></span><b>{0}</b> {1}</li>",
            outcome.code(),
            meaning
        );
    }
    let limit_line = "<li><svg class=\"key\" width=\"36\" height=\"10\"><line class=\"limit\" \
                      x1=\"0\" x2=\"36\" y1=\"5\" y2=\"5\"/></svg>";
    if multipliers.package_limit {
        let _ = writeln!(
            html,
            "{limit_line}the package's time limit, {}: a time-limit-exceeded submission must \
             run over it</li>",
            seconds(limit)
        );
    } else {
        let _ = writeln!(
            html,
            "{limit_line}the time limit, {}</li>\n\
             <li><svg class=\"key\" width=\"36\" height=\"10\"><line class=\"tle\" x1=\"0\" \
             x2=\"36\" y1=\"5\" y2=\"5\"/></svg>the limit × time_limit_to_tle {} = {}: a \
             time-limit-exceeded submission must run at least this long</li>",
            seconds(limit),
            multipliers.time_limit_to_tle,
            seconds(tle)
        );
    }
    html.push_str(
        "<li><span class=\"swatch stopped\"></span>a run stopped there: it takes at least that \
         long</li>\n",
    );
    html.push_str("</ul></section>\n");
    html
}

/// The matrix: a row a submission, a cell a test with its verdict and CPU time.
fn matrix(judged: &Judged) -> String {
    let mut html = String::from(
        "<section class=\"matrix\"><h2>Verdicts</h2><table><tr><th>submission</th>\
         <th>expected</th><th>got</th>",
    );
    for test in &judged.tests {
        let _ = write!(html, "<th class=\"test\">{}</th>", escape(test));
    }
    html.push_str("</tr>\n");
    for row in &judged.rows {
        let class = if row.check.is_ok() { "ok" } else { "bad" };
        let _ = write!(
            html,
            "<tr class=\"{class}\"><td>{}</td><td>{}</td><td title=\"{}\">{}</td>",
            escape(&row.submission.name),
            expected_code(row.submission.expected),
            escape(row.check.as_ref().err().map_or("", String::as_str)),
            escape(&got(row))
        );
        for (cell, test) in row.cells.iter().zip(&judged.tests) {
            let _ = write!(
                html,
                "<td class=\"{0}\" title=\"{1}: {0} {2:.3} s {3}\">{0}<br><small>{4}{2:.2}\
                 </small></td>",
                cell.outcome.code(),
                escape(test),
                cell.cpu.as_secs_f64(),
                escape(&cell.detail),
                if cell.stopped { "≥" } else { "" },
            );
        }
        html.push_str("</tr>\n");
    }
    html.push_str("</table></section>\n");
    html
}

/// The seconds of the y axis: from 0 to a round top, with a tick at every `step`.
struct Scale {
    top: f64,
    step: f64,
}

impl Scale {
    /// The smallest round scale reaching `at_least` with at most six steps.
    fn up_to(at_least: f64) -> Scale {
        let at_least = at_least.max(0.01);
        let mut step = 10f64.powf((at_least / 6.0).log10().floor());
        for factor in [1.0, 2.0, 2.5, 5.0, 10.0] {
            if at_least / (step * factor) <= 6.0 {
                step *= factor;
                break;
            }
        }
        Scale {
            top: (at_least / step).ceil() * step,
            step,
        }
    }

    /// The pixel row of `seconds`.
    fn y(&self, seconds: f64) -> f64 {
        TOP + (HEIGHT - TOP - BOTTOM) * (1.0 - (seconds / self.top).min(1.0))
    }

    fn ticks(&self) -> impl Iterator<Item = f64> + '_ {
        let count = (self.top / self.step).round() as usize;
        (0..=count).map(move |i| i as f64 * self.step)
    }
}

/// The lines across each plot: the limit and the limit × `time_limit_to_tle`, or the limit
/// alone when it is a package's own (the two are one line).
fn marks(multipliers: &Multipliers, limit: f64, tle: f64) -> Vec<(&'static str, f64, String)> {
    let mut marks = vec![("limit", limit, format!("limit {}", seconds(limit)))];
    if !multipliers.package_limit {
        marks.push((
            "tle",
            tle,
            format!("× {} = {}", multipliers.time_limit_to_tle, seconds(tle)),
        ));
    }
    marks
}

/// One submission's plot: its runs' CPU times against the two lines, with its axes.
fn figure(row: &Row, judged: &Judged, scale: &Scale, tle: f64) -> String {
    let limit = judged.limit.in_force.as_secs_f64();
    let mut svg = format!(
        "<figure><figcaption><b>{}</b> expects {}, got {}</figcaption>\n<svg class=\"plot\" \
         width=\"{WIDTH}\" height=\"{HEIGHT}\" viewBox=\"0 0 {WIDTH} {HEIGHT}\" \
         xmlns=\"http://www.w3.org/2000/svg\" role=\"img\">",
        escape(&row.submission.name),
        expected_code(row.submission.expected),
        escape(&got(row))
    );
    let right = WIDTH - RIGHT;
    svg.push_str("<g class=\"axis y\">");
    for tick in scale.ticks() {
        let y = scale.y(tick);
        let _ = write!(
            svg,
            "<line class=\"grid\" x1=\"{LEFT}\" x2=\"{right}\" y1=\"{y:.1}\" y2=\"{y:.1}\"/>\
             <text class=\"tick\" x=\"{:.1}\" y=\"{:.1}\" text-anchor=\"end\">{}</text>",
            LEFT - 5.0,
            y + 4.0,
            tick_label(tick, scale.step)
        );
    }
    let _ = write!(
        svg,
        "<text class=\"unit\" x=\"12\" y=\"{:.1}\" transform=\"rotate(-90 12 {0:.1})\" \
         text-anchor=\"middle\">CPU seconds</text></g>",
        (TOP + HEIGHT - BOTTOM) / 2.0
    );
    svg.push_str(&bars(row, judged, scale));
    let _ = write!(
        svg,
        "<g class=\"axis x\"><line x1=\"{LEFT}\" x2=\"{right}\" y1=\"{0:.1}\" y2=\"{0:.1}\"/>\
         <text class=\"unit\" x=\"{1:.1}\" y=\"{2:.1}\" text-anchor=\"middle\">tests 1 to {3}, \
         in the matrix's order</text></g>",
        scale.y(0.0),
        (LEFT + right) / 2.0,
        HEIGHT - 8.0,
        row.cells.len()
    );
    for (class, at, label) in marks(&judged.limit.multipliers, limit, tle) {
        let y = scale.y(at);
        let _ = write!(
            svg,
            "<line class=\"{class}\" x1=\"{LEFT}\" x2=\"{right}\" y1=\"{y:.1}\" y2=\"{y:.1}\"/>\
             <text class=\"{class}-label\" x=\"{:.1}\" y=\"{:.1}\">{}</text>",
            right + 4.0,
            y + 4.0,
            escape(&label)
        );
    }
    svg.push_str("</svg></figure>\n");
    svg
}

/// A bar a test, coloured by its verdict, its height its CPU time; a run stopped at the cap
/// is outlined, for it ran at least that long.
fn bars(row: &Row, judged: &Judged, scale: &Scale) -> String {
    let width = (WIDTH - LEFT - RIGHT) / row.cells.len().max(1) as f64;
    let mut svg = String::from("<g class=\"bars\">");
    for (i, (cell, test)) in row.cells.iter().zip(&judged.tests).enumerate() {
        let t = cell.cpu.as_secs_f64();
        let y = scale.y(t);
        let _ = write!(
            svg,
            "<rect class=\"bar {}{}\" x=\"{:.1}\" y=\"{y:.1}\" width=\"{:.1}\" height=\"{:.1}\">\
             <title>{}: {} {}{:.3} s</title></rect>",
            cell.outcome.code(),
            if cell.stopped { " stopped" } else { "" },
            LEFT + i as f64 * width + width * 0.1,
            (width * 0.8).max(1.0),
            (scale.y(0.0) - y).max(0.5),
            escape(test),
            cell.outcome.code(),
            if cell.stopped { "at least " } else { "" },
            t
        );
    }
    svg.push_str("</g>");
    svg
}

/// A tick's label: `0.25 s`, `2 s`, with the decimals the step needs.
fn tick_label(value: f64, step: f64) -> String {
    let decimals = (0..4)
        .find(|&d| {
            let scaled = step * 10f64.powi(d);
            (scaled - scaled.round()).abs() < 1e-9
        })
        .unwrap_or(4) as usize;
    format!("{value:.decimals$} s")
}

/// `2 s`, `1.5 s`.
fn seconds(value: f64) -> String {
    format!("{} s", (value * 1000.0).round() / 1000.0)
}

/// HTML text: `&`, `<`, `>` and quotes escaped.
pub fn escape(text: &str) -> String {
    text.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
}

/// The page's style, the verdicts' colours from [`VERDICTS`].
fn style() -> String {
    let mut css = String::from(
        "body{font-family:sans-serif;margin:1.5em;color:#222}h2{font-size:1.1em;margin:1.2em 0 \
         .4em}table{border-collapse:collapse}td,th{border:1px solid #ccc;padding:2px 6px;\
         font-size:13px;text-align:center}td:first-child{text-align:left}\
         th.test{writing-mode:vertical-rl}tr.bad td:first-child{font-weight:bold;color:#b00}\
         .legend ul{list-style:none;padding:0;columns:2}.legend li{margin:3px 0}\
         .swatch{display:inline-block;width:14px;height:14px;margin-right:6px;\
         vertical-align:middle}.swatch.stopped{border:2px solid #222;background:#fff;\
         width:10px;height:10px}svg.key{margin-right:6px;vertical-align:middle}\
         figure{display:inline-block;margin:0 1em 1em 0}figcaption{font-size:13px}\
         .axis line{stroke:#444}line.grid{stroke:#e4e4e4}text{font-size:11px;fill:#333}\
         line.limit{stroke:#000;stroke-width:1.5}line.tle{stroke:#000;stroke-width:1.5;\
         stroke-dasharray:5 3}text.limit-label,text.tle-label{font-weight:bold}\
         rect.stopped{stroke:#222;stroke-width:1.5}",
    );
    for (outcome, colour, _) in VERDICTS {
        let code = outcome.code();
        let _ = write!(
            css,
            "td.{code}{{background:{colour}33}}.swatch.{code},rect.{code}{{background:{colour};\
             fill:{colour}}}"
        );
    }
    css
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_axis_is_round_seconds() {
        let scale = Scale::up_to(3.3);
        assert_eq!((scale.top, scale.step), (4.0, 1.0));
        let ticks: Vec<String> = scale.ticks().map(|t| tick_label(t, scale.step)).collect();
        assert_eq!(ticks, ["0 s", "1 s", "2 s", "3 s", "4 s"]);
        let small = Scale::up_to(1.65);
        assert_eq!((small.top, small.step), (2.0, 0.5));
        let labels: Vec<String> = small.ticks().map(|t| tick_label(t, small.step)).collect();
        assert_eq!(labels, ["0.0 s", "0.5 s", "1.0 s", "1.5 s", "2.0 s"]);
        let quarter = Scale::up_to(1.4);
        assert_eq!(quarter.step, 0.25);
        assert_eq!(tick_label(0.75, 0.25), "0.75 s");
        assert_eq!(quarter.y(quarter.top), TOP);
        assert_eq!(quarter.y(0.0), HEIGHT - BOTTOM);
        assert_eq!(escape("a<b & \"c\""), "a&lt;b &amp; &quot;c&quot;");
    }

    #[test]
    fn a_package_limit_is_one_line_in_the_plots_and_the_legend() {
        let icpc = Multipliers::default();
        let classes = |m: &Multipliers, tle| -> Vec<&str> {
            marks(m, 1.0, tle).into_iter().map(|(c, _, _)| c).collect()
        };
        assert_eq!(classes(&icpc, 1.5), ["limit", "tle"]);
        assert_eq!(marks(&icpc, 1.0, 1.5)[1].2, "× 1.5 = 1.5 s");
        let polygon = Multipliers::polygon();
        assert_eq!(classes(&polygon, 1.0), ["limit"]);
        let legend_icpc = legend(1.0, 1.5, &icpc);
        assert!(legend_icpc.contains("the limit × time_limit_to_tle 1.5 = 1.5 s"));
        let legend_polygon = legend(1.0, 1.0, &polygon);
        assert!(
            !legend_polygon.contains("class=\"tle\""),
            "{legend_polygon}"
        );
        assert!(
            legend_polygon.contains("the package's time limit, 1 s: a time-limit-exceeded"),
            "{legend_polygon}"
        );
    }
}
