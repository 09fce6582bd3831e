"""The side-by-side chart of BENCHMARKS.md: an SVG drawn with the standard library alone.

Each row is one comparison: our figure and the other program's, as two bars scaled to the
larger of the two (so rows in µs, instructions and bytes sit in one picture), with the ratio
and the goal it is held to. report.py gives the rows; this file only draws them.
"""
import xml.etree.ElementTree as ElementTree

OURS_COLOUR = "#2b6cb0"
THEIRS_COLOUR = "#a0aec0"
MET_COLOUR = "#276749"
MISSED_COLOUR = "#c53030"
LABEL_WIDTH = 380
BAR_WIDTH = 360
RATIO_WIDTH = 190
ROW_HEIGHT = 40
GROUP_HEIGHT = 28
TOP = 64


def figure(value, unit):
    """A bar's value as a person reads it: µs, instructions (K or M) or MB."""
    if unit == "bytes":
        return f"{value / 1e6:.1f} MB"
    if unit == "instructions":
        return f"{value / 1e6:.2f}M" if value >= 1e6 else f"{value / 1e3:.0f}K"
    if value >= 100:
        return f"{value:,.0f} µs"
    return f"{value:.2f} µs" if value < 10 else f"{value:.1f} µs"


def text(parent, x, y, words, **attributes):
    element = ElementTree.SubElement(parent, "text", x=f"{x:.1f}", y=f"{y:.1f}", **attributes)
    # The labels are report.py's Markdown; a picture shows code names without their backticks.
    element.text = words.replace("`", "")
    return element


def side_by_side_svg(title, subtitle, rows):
    """The chart as SVG text.

    rows: (group, label, ours name, ours value, theirs name, theirs value, unit, goal) tuples,
    in order; a row whose goal is None shows its ratio with no verdict. Rows missing either
    value are left out, and a group with none left is not drawn.
    """
    kept = [row for row in rows if row[3] is not None and row[5] is not None and max(row[3], row[5]) > 0]
    groups = []
    for row in kept:
        if not groups or groups[-1][0] != row[0]:
            groups.append((row[0], []))
        groups[-1][1].append(row)
    width = LABEL_WIDTH + BAR_WIDTH + RATIO_WIDTH
    height = TOP + sum(GROUP_HEIGHT + ROW_HEIGHT * len(members) for _, members in groups) + 16
    svg = ElementTree.Element(
        "svg", xmlns="http://www.w3.org/2000/svg", width=str(width), height=str(height),
        viewBox=f"0 0 {width} {height}", **{"font-family": "sans-serif", "font-size": "12"})
    ElementTree.SubElement(svg, "rect", width=str(width), height=str(height), fill="white")
    text(svg, 8, 20, title, **{"font-size": "15", "font-weight": "bold"})
    text(svg, 8, 38, subtitle, fill="#4a5568")
    for offset, (name, colour) in enumerate((("swift-keyring", OURS_COLOUR), ("the other program", THEIRS_COLOUR))):
        x = LABEL_WIDTH + offset * 170
        ElementTree.SubElement(svg, "rect", x=str(x), y="46", width="12", height="10", fill=colour)
        text(svg, x + 16, 55, name)
    y = TOP
    for group, members in groups:
        text(svg, 8, y + 18, group, **{"font-weight": "bold"})
        y += GROUP_HEIGHT
        for _, label, ours_name, ours, theirs_name, theirs, unit, goal in members:
            largest = max(ours, theirs)
            text(svg, 16, y + 12, label)
            text(svg, 16, y + 27, f"against {theirs_name}", fill="#4a5568", **{"font-size": "11"})
            for line, (value, colour, name) in enumerate(((ours, OURS_COLOUR, ours_name), (theirs, THEIRS_COLOUR, theirs_name))):
                length = max(1.0, BAR_WIDTH * 0.78 * value / largest)
                bar = ElementTree.SubElement(
                    svg, "rect", x=str(LABEL_WIDTH), y=f"{y + 4 + line * 15:.1f}", width=f"{length:.1f}", height="12",
                    fill=colour)
                ElementTree.SubElement(bar, "title").text = f"{name}: {figure(value, unit)}"
                text(svg, LABEL_WIDTH + length + 4, y + 14 + line * 15, figure(value, unit), **{"font-size": "11"})
            ratio = ours / theirs if theirs else float("inf")
            verdict = "" if goal is None else (" met" if ratio <= goal else " missed")
            colour = "#1a202c" if goal is None else (MET_COLOUR if ratio <= goal else MISSED_COLOUR)
            text(svg, LABEL_WIDTH + BAR_WIDTH + 8, y + 14, f"{ratio:.2g}×{verdict}" if ratio < 0.1 else f"{ratio:,.2f}×{verdict}", fill=colour, **{"font-weight": "bold"})
            if goal is not None:
                text(svg, LABEL_WIDTH + BAR_WIDTH + 8, y + 29, f"goal ≤ {goal:g}×", fill="#4a5568", **{"font-size": "11"})
            y += ROW_HEIGHT
    ElementTree.indent(svg)
    return ElementTree.tostring(svg, encoding="unicode") + "\n"
