/** What a session's user agent says about the browser and system, for people to read. */
export interface AgentSummary {
  /** Browser or client with its major version: 'Chrome 124', 'curl 8.5'. */
  client?: string;
  /** Operating system: 'Windows 10/11', 'macOS', 'Android 14'. */
  os?: string;
}

// Order matters: Edge, Opera and the in-app browsers also say "Chrome" and "Safari".
const CLIENTS: ReadonlyArray<[string, RegExp]> = [
  ['Edge', /\bEdg(?:e|A|iOS)?\/(\d+)/],
  ['Opera', /\b(?:OPR|Opera)\/(\d+)/],
  ['WeChat', /\bMicroMessenger\/(\d+(?:\.\d+)?)/],
  ['Samsung Internet', /\bSamsungBrowser\/(\d+)/],
  ['UC Browser', /\bUCBrowser\/(\d+)/],
  ['Firefox', /\b(?:Firefox|FxiOS)\/(\d+)/],
  ['Headless Chrome', /\bHeadlessChrome\/(\d+)/],
  ['Chrome', /\b(?:Chrome|CriOS)\/(\d+)/],
  ['Safari', /\bVersion\/(\d+(?:\.\d+)?)(?:\.\d+)*(?: Mobile\/\S+)? Safari\//],
  // Programs rather than browsers: scripts and integrations calling the API.
  ['curl', /^curl\/(\d+\.\d+)/],
  ['Wget', /^Wget\/(\d+\.\d+)/],
  ['Python', /^python-(?:requests|httpx|urllib\d?)\/(\d+\.\d+)/],
  ['okhttp', /^okhttp\/(\d+\.\d+)/],
  ['Postman', /^PostmanRuntime\/(\d+\.\d+)/],
  ['axios', /^axios\/(\d+\.\d+)/],
  ['Node.js', /^(?:node-fetch|node|undici)(?:\/(\d+(?:\.\d+)?))?/],
];

function osOf(agent: string): string | undefined {
  const windows = /Windows NT (\d+\.\d+)/.exec(agent);
  if (windows) {
    const names: Record<string, string> = {
      '10.0': 'Windows 10/11',
      '6.3': 'Windows 8.1',
      '6.2': 'Windows 8',
      '6.1': 'Windows 7',
    };
    return names[windows[1]!] ?? 'Windows';
  }
  const ios = /(?:iPhone|CPU) OS (\d+)(?:_(\d+))?/.exec(agent);
  if (ios) return `${/iPad/.test(agent) ? 'iPadOS' : 'iOS'} ${ios[1]}${ios[2] ? `.${ios[2]}` : ''}`;
  if (/iPad/.test(agent)) return 'iPadOS';
  const harmony = /HarmonyOS(?:[ /](\d+))?/.exec(agent);
  if (harmony) return harmony[1] ? `HarmonyOS ${harmony[1]}` : 'HarmonyOS';
  const android = /Android (\d+(?:\.\d+)?)/.exec(agent);
  if (android) return `Android ${android[1]}`;
  if (/Android/.test(agent)) return 'Android';
  if (/Mac OS X|Macintosh/.test(agent)) return 'macOS';
  if (/CrOS/.test(agent)) return 'ChromeOS';
  if (/Linux|X11/.test(agent)) return 'Linux';
  return undefined;
}

/** Reads the browser (or program) and the system out of a User-Agent header. */
export function summarizeAgent(agent: string | null | undefined): AgentSummary {
  const text = (agent ?? '').trim();
  if (!text) return {};
  const summary: AgentSummary = {};
  for (const [name, pattern] of CLIENTS) {
    const match = pattern.exec(text);
    if (!match) continue;
    summary.client = match[1] ? `${name} ${match[1]}` : name;
    break;
  }
  const os = osOf(text);
  if (os) summary.os = os;
  return summary;
}

/** The summary as one line ('Chrome 124 · Windows 10/11'); blank when nothing was recognised. */
export function agentText(agent: string | null | undefined): string {
  const { client, os } = summarizeAgent(agent);
  return [client, os].filter(Boolean).join(' · ');
}
