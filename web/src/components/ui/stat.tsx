// One figure of a dashboard: a label, the value, an optional hint. Goes inside a <dl>.
import { Card } from './card';

export function Stat({
  label,
  value,
  hint,
  testId,
}: {
  label: string;
  value: string;
  hint?: string;
  testId?: string;
}) {
  return (
    <Card padding="sm">
      <dt className="text-sm text-slate-600">{label}</dt>
      <dd className="mt-1 text-2xl font-bold text-slate-900" data-testid={testId}>
        {value}
      </dd>
      {hint ? <dd className="mt-1 text-xs text-slate-600">{hint}</dd> : null}
    </Card>
  );
}
