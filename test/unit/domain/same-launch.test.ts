import { describe, expect, it } from 'vitest';
import { sameLaunch, type LaunchFields } from '../../../src/domain/same-launch.js';

const github: LaunchFields = {
  transport: 'stdio',
  command: 'npx',
  args: ['-y', '@modelcontextprotocol/server-github'],
  env: { LOG_LEVEL: 'info', GH_HOST: 'github.com' },
  headers: {},
  secret_env: ['GITHUB_TOKEN', 'OTHER_KEY'],
  secret_headers: [],
};

describe('sameLaunch', () => {
  it('is true for the same launch, whatever the order of maps and secret names', () => {
    const reordered: LaunchFields = {
      ...github,
      env: { GH_HOST: 'github.com', LOG_LEVEL: 'info' },
      secret_env: ['OTHER_KEY', 'GITHUB_TOKEN'],
    };
    expect(sameLaunch(github, reordered)).toBe(true);
  });

  it.each<[string, Partial<LaunchFields>]>([
    ['another command', { command: '/usr/bin/npx' }],
    ['arguments in another order', { args: ['@modelcontextprotocol/server-github', '-y'] }],
    ['one argument more', { args: [...github.args, '--read-only'] }],
    ['another plain value', { env: { LOG_LEVEL: 'debug', GH_HOST: 'github.com' } }],
    ['one plain value fewer', { env: { LOG_LEVEL: 'info' } }],
    ['another secret name', { secret_env: ['GITHUB_TOKEN'] }],
    ['a directory', { cwd: '/srv' }],
    ['a header', { headers: { 'X-Team': 'a' } }],
  ])('is false for %s', (_, change) => {
    expect(sameLaunch(github, { ...github, ...change })).toBe(false);
    expect(sameLaunch({ ...github, ...change }, github)).toBe(false);
  });

  it('tells remote servers apart by transport and URL', () => {
    const remote: LaunchFields = {
      transport: 'http',
      url: 'https://mcp.example.com/mcp',
      args: [],
      env: {},
      headers: {},
      secret_env: [],
      secret_headers: ['Authorization'],
    };
    expect(sameLaunch(remote, { ...remote })).toBe(true);
    expect(sameLaunch(remote, { ...remote, transport: 'sse' })).toBe(false);
    expect(sameLaunch(remote, { ...remote, url: 'https://mcp.example.com/sse' })).toBe(false);
  });
});
