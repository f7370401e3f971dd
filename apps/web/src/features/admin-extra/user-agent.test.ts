import { describe, expect, it } from 'vitest';
import { agentText, summarizeAgent } from './user-agent';

const agents = {
  chromeWindows:
    'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0.0.0 Safari/537.36',
  edge: 'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0.0.0 Safari/537.36 Edg/124.0.2478.51',
  firefoxLinux: 'Mozilla/5.0 (X11; Ubuntu; Linux x86_64; rv:125.0) Gecko/20100101 Firefox/125.0',
  safariMac:
    'Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.4.1 Safari/605.1.15',
  iphone:
    'Mozilla/5.0 (iPhone; CPU iPhone OS 17_4 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.4 Mobile/15E148 Safari/604.1',
  wechatAndroid:
    'Mozilla/5.0 (Linux; Android 13; V2203A Build/TP1A.220624.014; wv) AppleWebKit/537.36 (KHTML, like Gecko) Version/4.0 Chrome/111.0.5563.116 Mobile Safari/537.36 XWEB/1160065 MMWEBSDK/20231202 MicroMessenger/8.0.47.2560(0x28002F30) WeChat/arm64 Weixin NetType/WIFI Language/zh_CN ABI/arm64',
  headless:
    'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) HeadlessChrome/131.0.0.0 Safari/537.36',
  chromeIpad:
    'Mozilla/5.0 (iPad; CPU OS 16_6 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) CriOS/120.0.6099.119 Mobile/15E148 Safari/604.1',
};

describe('user agent summary', () => {
  it('names the browser and system of common agents', () => {
    expect(summarizeAgent(agents.chromeWindows)).toEqual({
      client: 'Chrome 124',
      os: 'Windows 10/11',
    });
    expect(summarizeAgent(agents.edge).client).toBe('Edge 124');
    expect(summarizeAgent(agents.firefoxLinux)).toEqual({ client: 'Firefox 125', os: 'Linux' });
    expect(summarizeAgent(agents.safariMac)).toEqual({ client: 'Safari 17.4', os: 'macOS' });
    expect(summarizeAgent(agents.iphone)).toEqual({ client: 'Safari 17.4', os: 'iOS 17.4' });
    expect(summarizeAgent(agents.wechatAndroid)).toEqual({
      client: 'WeChat 8.0',
      os: 'Android 13',
    });
    expect(summarizeAgent(agents.headless).client).toBe('Headless Chrome 131');
    expect(summarizeAgent(agents.chromeIpad)).toEqual({ client: 'Chrome 120', os: 'iPadOS 16.6' });
  });

  it('names programs calling the API', () => {
    expect(summarizeAgent('curl/7.88.1')).toEqual({ client: 'curl 7.88' });
    expect(summarizeAgent('python-requests/2.31.0').client).toBe('Python 2.31');
    expect(summarizeAgent('node').client).toBe('Node.js');
  });

  it('joins what it found into one line, blank for nothing', () => {
    expect(
      agentText(
        'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/156.0.0.0 Safari/537.36',
      ),
    ).toBe('Chrome 156 · Linux');
    expect(agentText(agents.chromeWindows)).toBe('Chrome 124 · Windows 10/11');
    expect(agentText('curl/8.5.0')).toBe('curl 8.5');
    expect(agentText(null)).toBe('');
    expect(agentText('SomethingElse/1')).toBe('');
  });
});
