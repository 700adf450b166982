/**
 * Structured JSON logs, one line per event. Fields named like secrets are redacted,
 * and so are bearer tokens, presigned-URL signatures and URL passwords in any
 * string value, so a careless field cannot leak a key into the logs.
 */
export type LogLevel = 'debug' | 'info' | 'warn' | 'error';
export type LogFields = Record<string, unknown>;

export interface Logger {
  debug(message: string, fields?: LogFields): void;
  info(message: string, fields?: LogFields): void;
  warn(message: string, fields?: LogFields): void;
  error(message: string, fields?: LogFields): void;
  child(fields: LogFields): Logger;
}

const ORDER: Record<LogLevel, number> = { debug: 10, info: 20, warn: 30, error: 40 };
const SECRET_FIELD = /(authorization|password|secret|token|api[-_]?key|credential|bundleurl|presigned)/i;

export function redactString(value: string): string {
  return value
    .replace(/\b(Bearer\s+)[^\s"']+/gi, '$1[redacted]')
    .replace(/\b(dpa|dps)_[A-Za-z0-9_-]{8,}/g, '$1_[redacted]')
    .replace(/([?&](?:X-Amz-Signature|X-Amz-Credential|X-Amz-Security-Token|Signature)=)[^&\s"']+/gi, '$1[redacted]')
    .replace(/(\w+:\/\/[^:/\s]+:)[^@/\s]+@/g, '$1[redacted]@');
}

export function redact(value: unknown, depth = 0): unknown {
  if (typeof value === 'string') return redactString(value);
  if (value instanceof Error) {
    return {
      name: value.name, message: redactString(value.message),
      ...(value.stack ? { stack: redactString(value.stack) } : {}),
      ...(value.cause !== undefined && depth < 6 ? { cause: redact(value.cause, depth + 1) } : {}),
    };
  }
  if (depth > 6 || value === null || typeof value !== 'object') return value;
  if (Array.isArray(value)) return value.map((v) => redact(v, depth + 1));
  return Object.fromEntries(
    Object.entries(value as Record<string, unknown>).map(([k, v]) => [k, SECRET_FIELD.test(k) ? '[redacted]' : redact(v, depth + 1)]),
  );
}

export function createLogger(
  level: LogLevel = 'info',
  base: LogFields = {},
  write: (line: string) => void = (line) => process.stdout.write(line + '\n'),
): Logger {
  const emit = (at: LogLevel, message: string, fields?: LogFields): void => {
    if (ORDER[at] < ORDER[level]) return;
    const record = { time: new Date().toISOString(), level: at, msg: redactString(message), ...(redact({ ...base, ...fields }) as LogFields) };
    write(JSON.stringify(record));
  };
  return {
    debug: (m, f) => emit('debug', m, f),
    info: (m, f) => emit('info', m, f),
    warn: (m, f) => emit('warn', m, f),
    error: (m, f) => emit('error', m, f),
    child: (fields) => createLogger(level, { ...base, ...fields }, write),
  };
}
