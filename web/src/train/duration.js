// A duration for people, in the page's language: "40 s", "7 min", "5.5 h", "3 days".
export function durationText(seconds, t) {
  if (seconds < 120) return t('train.duration.seconds', { n: Math.max(1, Math.round(seconds)) });
  if (seconds < 2 * 3600) return t('train.duration.minutes', { n: Math.round(seconds / 60) });
  if (seconds < 2 * 86400) return t('train.duration.hours', { n: Math.round(seconds / 360) / 10 });
  return t('train.duration.days', { n: Math.round(seconds / 86400) });
}
