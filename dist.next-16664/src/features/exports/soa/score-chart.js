import { latinFont } from './pdf-fonts.js';
const AXIS_COLOR = '#888888';
const LINE_COLOR = '#1f5fa8';
/**
 * The score history as a line chart on a 0–100 axis, drawn with plain PDF paths. Periods without a
 * score (no applicable control) break the line.
 */
export function drawScoreChart(doc, history, box) {
    const { x, y, width, height } = box;
    const left = x + 30;
    const plotWidth = width - 30;
    doc.save().font(latinFont('regular')).fontSize(7).lineWidth(0.5);
    for (const tick of [0, 25, 50, 75, 100]) {
        const ty = y + height - (tick / 100) * height;
        doc
            .strokeColor(tick === 0 ? AXIS_COLOR : '#dddddd')
            .moveTo(left, ty)
            .lineTo(left + plotWidth, ty)
            .stroke();
        doc.fillColor(AXIS_COLOR).text(String(tick), x, ty - 3, { width: 24, align: 'right', lineBreak: false });
    }
    if (history.length === 0) {
        doc
            .fillColor(AXIS_COLOR)
            .text('No score history recorded.', left, y + height / 2 - 4, { width: plotWidth, align: 'center' });
        doc.restore();
        return;
    }
    const step = history.length > 1 ? plotWidth / (history.length - 1) : 0;
    const pointX = (i) => (history.length > 1 ? left + i * step : left + plotWidth / 2);
    const pointY = (score) => y + height - (Math.min(100, Math.max(0, score)) / 100) * height;
    doc.strokeColor(LINE_COLOR).lineWidth(1.2);
    let drawing = false;
    history.forEach((point, i) => {
        if (point.score === null) {
            drawing = false;
            return;
        }
        if (drawing)
            doc.lineTo(pointX(i), pointY(point.score));
        else
            doc.moveTo(pointX(i), pointY(point.score));
        drawing = true;
    });
    doc.stroke();
    doc.fillColor(LINE_COLOR);
    history.forEach((point, i) => {
        if (point.score !== null && history.length <= 60)
            doc.circle(pointX(i), pointY(point.score), 1.5).fill();
    });
    doc.fillColor(AXIS_COLOR);
    const first = history[0].periodStart.slice(0, 10);
    const last = history[history.length - 1].periodStart.slice(0, 10);
    doc.text(first, left, y + height + 4, { width: 80, lineBreak: false });
    if (history.length > 1)
        doc.text(last, left + plotWidth - 80, y + height + 4, { width: 80, align: 'right', lineBreak: false });
    doc.restore();
}
//# sourceMappingURL=score-chart.js.map