import pc from 'picocolors';
import { describe, expect, it } from 'vitest';
import { renderDoctor, type DoctorOutput } from '../../../src/cli/render/doctor-lines.js';
import type { DoctorFinding, DoctorServer } from '../../../src/domain/ports.js';

const plain = pc.createColors(false);

function server(name: string): DoctorServer {
  return {
    name,
    transport: 'stdio',
    enabled: true,
    state: 'idle',
    command: 'node',
    command_path: '/usr/bin/node',
    started_at: null,
    start_ms: null,
    last_error: null,
  };
}

function output(servers: DoctorServer[], findings: DoctorFinding[]): DoctorOutput {
  return {
    ok: false,
    coffer_version: '1.0.0',
    node_version: 'v22.1.0',
    platform: 'linux',
    daemon: null,
    keychain: null,
    search_path: null,
    servers,
    agents: [],
    findings,
  };
}

const finding = (code: DoctorFinding['code'], subject: string): DoctorFinding => ({
  code,
  level: 'fail',
  subject,
  message: 'm',
  fix: null,
});

describe("coffer doctor's server lines", () => {
  it('mark a server a finding says cannot work, though its command is found', () => {
    const text = renderDoctor(
      output(
        [server('moved'), server('github'), server('cursor'), server('fine')],
        [
          finding('CWD_NOT_FOUND', 'moved'),
          finding('SECRET_MISSING', 'github'),
          // An agent's finding names the agent, whatever a server is called.
          finding('AGENT_SHIM_BROKEN', 'cursor'),
        ],
      ),
      plain,
    );
    expect(text).toContain('  ✗ moved: idle, node → /usr/bin/node');
    expect(text).toContain('  ✗ github: idle, node → /usr/bin/node');
    expect(text).toContain('  ✓ cursor: idle, node → /usr/bin/node');
    expect(text).toContain('  ✓ fine: idle, node → /usr/bin/node');
  });
});
