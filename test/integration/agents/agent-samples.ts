/**
 * One realistic config file per agent, in that agent's own format and with the quirks
 * users' files have: comments where the format allows them, odd indentation, inline
 * objects, settings unrelated to MCP. Each holds a local server with a token in its env
 * and (where the agent has remote servers) a remote one with an Authorization header.
 * Kept as strings in code so no formatter ever "fixes" them.
 */

export const GITHUB_TOKEN = 'ghp_TESTSECRET0123456789';
export const DOCS_AUTH = 'Bearer sk-TESTSECRET9876543210';

export interface AgentSample {
  readonly text: string;
  /** A string that must survive every edit (a comment or an unrelated setting). */
  readonly keep: string;
  /** The remote server's transport in Coffer, when the sample has one. */
  readonly docs?: 'http' | 'sse';
}

const claudeDesktop = `{
    "globalShortcut": "Ctrl+Space",
    "mcpServers": {
        "github": {
            "command": "npx",
            "args": ["-y", "@modelcontextprotocol/server-github"],
            "env": { "GITHUB_TOKEN": "${GITHUB_TOKEN}", "LOG_LEVEL": "debug" }
        },
        "files": { "command": "npx", "args": ["-y", "@modelcontextprotocol/server-filesystem", "/tmp"] }
    }
}
`;

const claudeCode = `{
  "numStartups": 41,
  "mcpServers": {
    "github": {
      "type": "stdio",
      "command": "npx",
      "args": ["-y", "@modelcontextprotocol/server-github"],
      "env": { "GITHUB_TOKEN": "${GITHUB_TOKEN}", "LOG_LEVEL": "debug" }
    },
    "docs": {
      "type": "http",
      "url": "https://docs.example.com/mcp",
      "headers": { "Authorization": "${DOCS_AUTH}" }
    }
  },
  "tipsHistory": { "memory-command": 40 }
}
`;

const cursor = `{
  // Cursor's global MCP servers
  "mcpServers": {
    "github": {
      "command": "npx",
      "args": ["-y", "@modelcontextprotocol/server-github"],
      "env": { "GITHUB_TOKEN": "${GITHUB_TOKEN}", "LOG_LEVEL": "debug" }
    },
    "docs": { "url": "https://docs.example.com/mcp", "headers": { "Authorization": "${DOCS_AUTH}" } }, // remote
  }
}
`;

const vscode = `// User MCP configuration
{
\t"inputs": [],
\t"servers": {
\t\t"github": {
\t\t\t"type": "stdio",
\t\t\t"command": "npx",
\t\t\t"args": ["-y", "@modelcontextprotocol/server-github"],
\t\t\t"env": { "GITHUB_TOKEN": "${GITHUB_TOKEN}", "LOG_LEVEL": "debug" }
\t\t},
\t\t"docs": {
\t\t\t"type": "http",
\t\t\t"url": "https://docs.example.com/mcp",
\t\t\t"headers": { "Authorization": "${DOCS_AUTH}" } // token
\t\t}
\t}
}
`;

const windsurf = `{
    "mcpServers": {
        "github": {
            "command": "npx",
            "args": ["-y", "@modelcontextprotocol/server-github"],
            "env": { "GITHUB_TOKEN": "${GITHUB_TOKEN}", "LOG_LEVEL": "debug" },
            "disabled": false
        },
        "docs": {
            "serverUrl": "https://docs.example.com/mcp",
            "headers": { "Authorization": "${DOCS_AUTH}" }
        }
    }
}
`;

const codex = `# Codex configuration
model = "o3"  # the default model

[mcp_servers.github]
command = "npx"   # started by Codex
args = ["-y", "@modelcontextprotocol/server-github"]

[mcp_servers.github.env]
GITHUB_TOKEN = "${GITHUB_TOKEN}"
LOG_LEVEL = "debug"

# A remote server
[mcp_servers.docs]
url = "https://docs.example.com/mcp"
http_headers = { "Authorization" = "${DOCS_AUTH}" }

[profiles.fast]
model = "o4-mini"
`;

const gemini = `{
  "theme": "Dracula", // editor theme
  "mcpServers": {
    "github": {
      "command": "npx",
      "args": ["-y", "@modelcontextprotocol/server-github"],
      "env": { "GITHUB_TOKEN": "${GITHUB_TOKEN}", "LOG_LEVEL": "debug" },
      "timeout": 30000
    },
    "docs": {
      "httpUrl": "https://docs.example.com/mcp",
      "headers": { "Authorization": "${DOCS_AUTH}" }
    }
  }
}
`;

const zed = `// Zed settings
//
// For information on how to configure Zed, see the Zed documentation.
{
  "theme": "One Dark",
  "context_servers": {
    "github": {
      "source": "custom",
      "command": {
        "path": "npx",
        "args": ["-y", "@modelcontextprotocol/server-github"],
        "env": { "GITHUB_TOKEN": "${GITHUB_TOKEN}", "LOG_LEVEL": "debug" }
      }
    },
    "docs": {
      "url": "https://docs.example.com/mcp",
      "headers": { "Authorization": "${DOCS_AUTH}" }
    }
  },
  "buffer_font_size": 15
}
`;

const cline = `{
  "mcpServers": {
    "github": {
      "command": "npx",
      "args": ["-y", "@modelcontextprotocol/server-github"],
      "env": { "GITHUB_TOKEN": "${GITHUB_TOKEN}", "LOG_LEVEL": "debug" },
      "disabled": false,
      "autoApprove": []
    },
    "docs": {
      "type": "streamableHttp",
      "url": "https://docs.example.com/mcp",
      "headers": { "Authorization": "${DOCS_AUTH}" },
      "disabled": false
    }
  }
}
`;

export const agentSamples: Readonly<Record<string, AgentSample>> = {
  'claude-desktop': { text: claudeDesktop, keep: '"globalShortcut": "Ctrl+Space"' },
  'claude-code': { text: claudeCode, keep: '"numStartups": 41', docs: 'http' },
  cursor: { text: cursor, keep: "// Cursor's global MCP servers", docs: 'http' },
  vscode: { text: vscode, keep: '// User MCP configuration', docs: 'http' },
  // Windsurf's and Cline's files hold nothing but servers: their indentation must stay.
  windsurf: { text: windsurf, keep: '{\n    "mcpServers": {\n        "coffer": {', docs: 'http' },
  codex: { text: codex, keep: 'model = "o3"  # the default model', docs: 'http' },
  gemini: { text: gemini, keep: '"theme": "Dracula", // editor theme', docs: 'http' },
  zed: { text: zed, keep: '// For information on how to configure Zed', docs: 'http' },
  cline: { text: cline, keep: '{\n  "mcpServers": {\n    "coffer": {', docs: 'http' },
};
