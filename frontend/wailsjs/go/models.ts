export namespace acp {
	
	export class AuthMethod {
	    id: string;
	    name: string;
	    description?: string;
	    kind: string;
	    vars?: string[];
	    link?: string;
	    command?: string;
	
	    static createFrom(source: any = {}) {
	        return new AuthMethod(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.id = source["id"];
	        this.name = source["name"];
	        this.description = source["description"];
	        this.kind = source["kind"];
	        this.vars = source["vars"];
	        this.link = source["link"];
	        this.command = source["command"];
	    }
	}
	export class Capabilities {
	    loadSession: boolean;
	    resume: boolean;
	    close: boolean;
	    mcpStdio: boolean;
	    mcpHttp: boolean;
	    mcpSse: boolean;
	
	    static createFrom(source: any = {}) {
	        return new Capabilities(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.loadSession = source["loadSession"];
	        this.resume = source["resume"];
	        this.close = source["close"];
	        this.mcpStdio = source["mcpStdio"];
	        this.mcpHttp = source["mcpHttp"];
	        this.mcpSse = source["mcpSse"];
	    }
	}
	export class Command {
	    name: string;
	    description: string;
	    hint?: string;
	    builtin: boolean;
	
	    static createFrom(source: any = {}) {
	        return new Command(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.name = source["name"];
	        this.description = source["description"];
	        this.hint = source["hint"];
	        this.builtin = source["builtin"];
	    }
	}
	export class Report {
	    command: string;
	    name: string;
	    title: string;
	    version: string;
	    protocolVersion: number;
	    capabilities: Capabilities;
	    authMethods: AuthMethod[];
	    seconds: number;
	
	    static createFrom(source: any = {}) {
	        return new Report(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.command = source["command"];
	        this.name = source["name"];
	        this.title = source["title"];
	        this.version = source["version"];
	        this.protocolVersion = source["protocolVersion"];
	        this.capabilities = this.convertValues(source["capabilities"], Capabilities);
	        this.authMethods = this.convertValues(source["authMethods"], AuthMethod);
	        this.seconds = source["seconds"];
	    }
	
		convertValues(a: any, classs: any, asMap: boolean = false): any {
		    if (!a) {
		        return a;
		    }
		    if (a.slice && a.map) {
		        return (a as any[]).map(elem => this.convertValues(elem, classs));
		    } else if ("object" === typeof a) {
		        if (asMap) {
		            for (const key of Object.keys(a)) {
		                a[key] = new classs(a[key]);
		            }
		            return a;
		        }
		        return new classs(a);
		    }
		    return a;
		}
	}

}

export namespace agentconf {
	
	export class Agent {
	    name: string;
	    command: string;
	    args: string[];
	    env?: Record<string, string>;
	    contextWindow?: number;
	    sandbox?: string;
	    paths?: string[];
	    writeDocs?: boolean;
	    local?: boolean;
	
	    static createFrom(source: any = {}) {
	        return new Agent(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.name = source["name"];
	        this.command = source["command"];
	        this.args = source["args"];
	        this.env = source["env"];
	        this.contextWindow = source["contextWindow"];
	        this.sandbox = source["sandbox"];
	        this.paths = source["paths"];
	        this.writeDocs = source["writeDocs"];
	        this.local = source["local"];
	    }
	}
	export class Agents {
	    default: string;
	    agents: Agent[];
	
	    static createFrom(source: any = {}) {
	        return new Agents(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.default = source["default"];
	        this.agents = this.convertValues(source["agents"], Agent);
	    }
	
		convertValues(a: any, classs: any, asMap: boolean = false): any {
		    if (!a) {
		        return a;
		    }
		    if (a.slice && a.map) {
		        return (a as any[]).map(elem => this.convertValues(elem, classs));
		    } else if ("object" === typeof a) {
		        if (asMap) {
		            for (const key of Object.keys(a)) {
		                a[key] = new classs(a[key]);
		            }
		            return a;
		        }
		        return new classs(a);
		    }
		    return a;
		}
	}
	export class Preset {
	    id: string;
	    name: string;
	    command: string;
	    args: string[];
	    install: string;
	    login: string;
	    website: string;
	    path: string;
	    found: boolean;
	
	    static createFrom(source: any = {}) {
	        return new Preset(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.id = source["id"];
	        this.name = source["name"];
	        this.command = source["command"];
	        this.args = source["args"];
	        this.install = source["install"];
	        this.login = source["login"];
	        this.website = source["website"];
	        this.path = source["path"];
	        this.found = source["found"];
	    }
	}

}

export namespace citation {
	
	export class Check {
	    uri: string;
	    page: number;
	    verdict: string;
	    foundPage: number;
	    quote: string;
	    why: string;
	    passage: string;
	    claim: string;
	    line: number;
	    start: number;
	    end: number;
	
	    static createFrom(source: any = {}) {
	        return new Check(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.uri = source["uri"];
	        this.page = source["page"];
	        this.verdict = source["verdict"];
	        this.foundPage = source["foundPage"];
	        this.quote = source["quote"];
	        this.why = source["why"];
	        this.passage = source["passage"];
	        this.claim = source["claim"];
	        this.line = source["line"];
	        this.start = source["start"];
	        this.end = source["end"];
	    }
	}

}

export namespace compact {
	
	export class Result {
	    tiers: string[];
	    whole: number[];
	    pruned: number[];
	    summarized: number[];
	    snipped: number;
	    tailGuard: number;
	    tokensBefore: number;
	    tokensAfter: number;
	    window: number;
	    reserve: number;
	    limit: number;
	    notes?: string[];
	    summary?: string;
	    summarizedN?: number;
	    text: string;
	
	    static createFrom(source: any = {}) {
	        return new Result(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.tiers = source["tiers"];
	        this.whole = source["whole"];
	        this.pruned = source["pruned"];
	        this.summarized = source["summarized"];
	        this.snipped = source["snipped"];
	        this.tailGuard = source["tailGuard"];
	        this.tokensBefore = source["tokensBefore"];
	        this.tokensAfter = source["tokensAfter"];
	        this.window = source["window"];
	        this.reserve = source["reserve"];
	        this.limit = source["limit"];
	        this.notes = source["notes"];
	        this.summary = source["summary"];
	        this.summarizedN = source["summarizedN"];
	        this.text = source["text"];
	    }
	}

}

export namespace conversation {
	
	export class PlanStep {
	    content: string;
	    priority?: string;
	    status?: string;
	
	    static createFrom(source: any = {}) {
	        return new PlanStep(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.content = source["content"];
	        this.priority = source["priority"];
	        this.status = source["status"];
	    }
	}
	export class Message {
	    id: string;
	    role: string;
	    content: string;
	    sources?: string[];
	    consulted?: string[];
	    checks?: citation.Check[];
	    error?: string;
	    errorCode?: string;
	    agent?: string;
	    plan?: PlanStep[];
	    tools?: events.AgentToolEvent[];
	    permissions?: events.AgentPermissionEvent[];
	    stopReason?: string;
	    sandbox?: string;
	    sandboxWhy?: string;
	    // Go type: time
	    at: any;
	
	    static createFrom(source: any = {}) {
	        return new Message(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.id = source["id"];
	        this.role = source["role"];
	        this.content = source["content"];
	        this.sources = source["sources"];
	        this.consulted = source["consulted"];
	        this.checks = this.convertValues(source["checks"], citation.Check);
	        this.error = source["error"];
	        this.errorCode = source["errorCode"];
	        this.agent = source["agent"];
	        this.plan = this.convertValues(source["plan"], PlanStep);
	        this.tools = this.convertValues(source["tools"], events.AgentToolEvent);
	        this.permissions = this.convertValues(source["permissions"], events.AgentPermissionEvent);
	        this.stopReason = source["stopReason"];
	        this.sandbox = source["sandbox"];
	        this.sandboxWhy = source["sandboxWhy"];
	        this.at = this.convertValues(source["at"], null);
	    }
	
		convertValues(a: any, classs: any, asMap: boolean = false): any {
		    if (!a) {
		        return a;
		    }
		    if (a.slice && a.map) {
		        return (a as any[]).map(elem => this.convertValues(elem, classs));
		    } else if ("object" === typeof a) {
		        if (asMap) {
		            for (const key of Object.keys(a)) {
		                a[key] = new classs(a[key]);
		            }
		            return a;
		        }
		        return new classs(a);
		    }
		    return a;
		}
	}
	export class Conversation {
	    id: string;
	    surface: string;
	    title?: string;
	    paper?: string;
	    agent: string;
	    runtimeId: string;
	    providerSessionId: string;
	    fingerprint: string;
	    sessionSeen: number;
	    clearedTurns?: number;
	    messages: Message[];
	    // Go type: time
	    createdAt: any;
	    // Go type: time
	    updatedAt: any;
	
	    static createFrom(source: any = {}) {
	        return new Conversation(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.id = source["id"];
	        this.surface = source["surface"];
	        this.title = source["title"];
	        this.paper = source["paper"];
	        this.agent = source["agent"];
	        this.runtimeId = source["runtimeId"];
	        this.providerSessionId = source["providerSessionId"];
	        this.fingerprint = source["fingerprint"];
	        this.sessionSeen = source["sessionSeen"];
	        this.clearedTurns = source["clearedTurns"];
	        this.messages = this.convertValues(source["messages"], Message);
	        this.createdAt = this.convertValues(source["createdAt"], null);
	        this.updatedAt = this.convertValues(source["updatedAt"], null);
	    }
	
		convertValues(a: any, classs: any, asMap: boolean = false): any {
		    if (!a) {
		        return a;
		    }
		    if (a.slice && a.map) {
		        return (a as any[]).map(elem => this.convertValues(elem, classs));
		    } else if ("object" === typeof a) {
		        if (asMap) {
		            for (const key of Object.keys(a)) {
		                a[key] = new classs(a[key]);
		            }
		            return a;
		        }
		        return new classs(a);
		    }
		    return a;
		}
	}
	
	
	export class PromptPart {
	    kind: string;
	    text: string;
	
	    static createFrom(source: any = {}) {
	        return new PromptPart(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.kind = source["kind"];
	        this.text = source["text"];
	    }
	}
	export class SentPrompt {
	    turn: string;
	    // Go type: time
	    at: any;
	    agent: string;
	    sessionId: string;
	    action: string;
	    tools: string[];
	    parts: PromptPart[];
	
	    static createFrom(source: any = {}) {
	        return new SentPrompt(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.turn = source["turn"];
	        this.at = this.convertValues(source["at"], null);
	        this.agent = source["agent"];
	        this.sessionId = source["sessionId"];
	        this.action = source["action"];
	        this.tools = source["tools"];
	        this.parts = this.convertValues(source["parts"], PromptPart);
	    }
	
		convertValues(a: any, classs: any, asMap: boolean = false): any {
		    if (!a) {
		        return a;
		    }
		    if (a.slice && a.map) {
		        return (a as any[]).map(elem => this.convertValues(elem, classs));
		    } else if ("object" === typeof a) {
		        if (asMap) {
		            for (const key of Object.keys(a)) {
		                a[key] = new classs(a[key]);
		            }
		            return a;
		        }
		        return new classs(a);
		    }
		    return a;
		}
	}
	export class Summary {
	    id: string;
	    surface: string;
	    title: string;
	    named: boolean;
	    paper?: string;
	    agent: string;
	    messages: number;
	    // Go type: time
	    createdAt: any;
	    // Go type: time
	    updatedAt: any;
	    match?: string;
	
	    static createFrom(source: any = {}) {
	        return new Summary(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.id = source["id"];
	        this.surface = source["surface"];
	        this.title = source["title"];
	        this.named = source["named"];
	        this.paper = source["paper"];
	        this.agent = source["agent"];
	        this.messages = source["messages"];
	        this.createdAt = this.convertValues(source["createdAt"], null);
	        this.updatedAt = this.convertValues(source["updatedAt"], null);
	        this.match = source["match"];
	    }
	
		convertValues(a: any, classs: any, asMap: boolean = false): any {
		    if (!a) {
		        return a;
		    }
		    if (a.slice && a.map) {
		        return (a as any[]).map(elem => this.convertValues(elem, classs));
		    } else if ("object" === typeof a) {
		        if (asMap) {
		            for (const key of Object.keys(a)) {
		                a[key] = new classs(a[key]);
		            }
		            return a;
		        }
		        return new classs(a);
		    }
		    return a;
		}
	}

}

export namespace docs {
	
	export class Doc {
	    id: string;
	    description: string;
	    trigger: string;
	    priority: string;
	    bytes: number;
	    preload?: boolean;
	    forbidden?: boolean;
	    trustLevel: string;
	    sensitivity: string;
	    noFrontMatter?: boolean;
	
	    static createFrom(source: any = {}) {
	        return new Doc(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.id = source["id"];
	        this.description = source["description"];
	        this.trigger = source["trigger"];
	        this.priority = source["priority"];
	        this.bytes = source["bytes"];
	        this.preload = source["preload"];
	        this.forbidden = source["forbidden"];
	        this.trustLevel = source["trustLevel"];
	        this.sensitivity = source["sensitivity"];
	        this.noFrontMatter = source["noFrontMatter"];
	    }
	}
	export class Problem {
	    path: string;
	    problem: string;
	
	    static createFrom(source: any = {}) {
	        return new Problem(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.path = source["path"];
	        this.problem = source["problem"];
	    }
	}

}

export namespace events {
	
	export class AgentChunkEvent {
	    conversationId: string;
	    messageId: string;
	    kind: string;
	    text: string;
	
	    static createFrom(source: any = {}) {
	        return new AgentChunkEvent(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.conversationId = source["conversationId"];
	        this.messageId = source["messageId"];
	        this.kind = source["kind"];
	        this.text = source["text"];
	    }
	}
	export class AgentCompletedEvent {
	    conversationId: string;
	    turnId: string;
	    messageId: string;
	    content: string;
	    sources: string[];
	    consulted: string[];
	    checks: citation.Check[];
	    stopReason: string;
	    agent: string;
	    sandbox: string;
	    sandboxWhy: string;
	
	    static createFrom(source: any = {}) {
	        return new AgentCompletedEvent(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.conversationId = source["conversationId"];
	        this.turnId = source["turnId"];
	        this.messageId = source["messageId"];
	        this.content = source["content"];
	        this.sources = source["sources"];
	        this.consulted = source["consulted"];
	        this.checks = this.convertValues(source["checks"], citation.Check);
	        this.stopReason = source["stopReason"];
	        this.agent = source["agent"];
	        this.sandbox = source["sandbox"];
	        this.sandboxWhy = source["sandboxWhy"];
	    }
	
		convertValues(a: any, classs: any, asMap: boolean = false): any {
		    if (!a) {
		        return a;
		    }
		    if (a.slice && a.map) {
		        return (a as any[]).map(elem => this.convertValues(elem, classs));
		    } else if ("object" === typeof a) {
		        if (asMap) {
		            for (const key of Object.keys(a)) {
		                a[key] = new classs(a[key]);
		            }
		            return a;
		        }
		        return new classs(a);
		    }
		    return a;
		}
	}
	export class AgentErrorEvent {
	    conversationId: string;
	    messageId?: string;
	    code: string;
	    error: string;
	
	    static createFrom(source: any = {}) {
	        return new AgentErrorEvent(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.conversationId = source["conversationId"];
	        this.messageId = source["messageId"];
	        this.code = source["code"];
	        this.error = source["error"];
	    }
	}
	export class PermissionOption {
	    id: string;
	    name: string;
	    kind: string;
	
	    static createFrom(source: any = {}) {
	        return new PermissionOption(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.id = source["id"];
	        this.name = source["name"];
	        this.kind = source["kind"];
	    }
	}
	export class ToolLocation {
	    path: string;
	    line?: number;
	    inVault: boolean;
	    citationUri?: string;
	
	    static createFrom(source: any = {}) {
	        return new ToolLocation(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.path = source["path"];
	        this.line = source["line"];
	        this.inVault = source["inVault"];
	        this.citationUri = source["citationUri"];
	    }
	}
	export class AgentPermissionEvent {
	    conversationId: string;
	    messageId: string;
	    requestId: string;
	    toolCallId?: string;
	    title: string;
	    kind?: string;
	    input?: string;
	    locations?: ToolLocation[];
	    options: PermissionOption[];
	    inVault: boolean;
	    outcome?: string;
	    optionId?: string;
	    auto: boolean;
	
	    static createFrom(source: any = {}) {
	        return new AgentPermissionEvent(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.conversationId = source["conversationId"];
	        this.messageId = source["messageId"];
	        this.requestId = source["requestId"];
	        this.toolCallId = source["toolCallId"];
	        this.title = source["title"];
	        this.kind = source["kind"];
	        this.input = source["input"];
	        this.locations = this.convertValues(source["locations"], ToolLocation);
	        this.options = this.convertValues(source["options"], PermissionOption);
	        this.inVault = source["inVault"];
	        this.outcome = source["outcome"];
	        this.optionId = source["optionId"];
	        this.auto = source["auto"];
	    }
	
		convertValues(a: any, classs: any, asMap: boolean = false): any {
		    if (!a) {
		        return a;
		    }
		    if (a.slice && a.map) {
		        return (a as any[]).map(elem => this.convertValues(elem, classs));
		    } else if ("object" === typeof a) {
		        if (asMap) {
		            for (const key of Object.keys(a)) {
		                a[key] = new classs(a[key]);
		            }
		            return a;
		        }
		        return new classs(a);
		    }
		    return a;
		}
	}
	export class PlanEntry {
	    content: string;
	    priority?: string;
	    status?: string;
	
	    static createFrom(source: any = {}) {
	        return new PlanEntry(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.content = source["content"];
	        this.priority = source["priority"];
	        this.status = source["status"];
	    }
	}
	export class AgentPlanEvent {
	    conversationId: string;
	    messageId: string;
	    entries: PlanEntry[];
	
	    static createFrom(source: any = {}) {
	        return new AgentPlanEvent(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.conversationId = source["conversationId"];
	        this.messageId = source["messageId"];
	        this.entries = this.convertValues(source["entries"], PlanEntry);
	    }
	
		convertValues(a: any, classs: any, asMap: boolean = false): any {
		    if (!a) {
		        return a;
		    }
		    if (a.slice && a.map) {
		        return (a as any[]).map(elem => this.convertValues(elem, classs));
		    } else if ("object" === typeof a) {
		        if (asMap) {
		            for (const key of Object.keys(a)) {
		                a[key] = new classs(a[key]);
		            }
		            return a;
		        }
		        return new classs(a);
		    }
		    return a;
		}
	}
	export class AgentStatusEvent {
	    conversationId: string;
	    messageId: string;
	    action: string;
	    note: string;
	    mode: string;
	    allowed: grant.Source[];
	    fingerprint: string;
	
	    static createFrom(source: any = {}) {
	        return new AgentStatusEvent(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.conversationId = source["conversationId"];
	        this.messageId = source["messageId"];
	        this.action = source["action"];
	        this.note = source["note"];
	        this.mode = source["mode"];
	        this.allowed = this.convertValues(source["allowed"], grant.Source);
	        this.fingerprint = source["fingerprint"];
	    }
	
		convertValues(a: any, classs: any, asMap: boolean = false): any {
		    if (!a) {
		        return a;
		    }
		    if (a.slice && a.map) {
		        return (a as any[]).map(elem => this.convertValues(elem, classs));
		    } else if ("object" === typeof a) {
		        if (asMap) {
		            for (const key of Object.keys(a)) {
		                a[key] = new classs(a[key]);
		            }
		            return a;
		        }
		        return new classs(a);
		    }
		    return a;
		}
	}
	export class ToolContent {
	    type: string;
	    text?: string;
	    path?: string;
	    oldText?: string;
	    newText?: string;
	
	    static createFrom(source: any = {}) {
	        return new ToolContent(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.type = source["type"];
	        this.text = source["text"];
	        this.path = source["path"];
	        this.oldText = source["oldText"];
	        this.newText = source["newText"];
	    }
	}
	export class AgentToolEvent {
	    conversationId: string;
	    messageId: string;
	    toolCallId: string;
	    title?: string;
	    status?: string;
	    kind?: string;
	    input?: string;
	    content?: ToolContent[];
	    locations?: ToolLocation[];
	
	    static createFrom(source: any = {}) {
	        return new AgentToolEvent(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.conversationId = source["conversationId"];
	        this.messageId = source["messageId"];
	        this.toolCallId = source["toolCallId"];
	        this.title = source["title"];
	        this.status = source["status"];
	        this.kind = source["kind"];
	        this.input = source["input"];
	        this.content = this.convertValues(source["content"], ToolContent);
	        this.locations = this.convertValues(source["locations"], ToolLocation);
	    }
	
		convertValues(a: any, classs: any, asMap: boolean = false): any {
		    if (!a) {
		        return a;
		    }
		    if (a.slice && a.map) {
		        return (a as any[]).map(elem => this.convertValues(elem, classs));
		    } else if ("object" === typeof a) {
		        if (asMap) {
		            for (const key of Object.keys(a)) {
		                a[key] = new classs(a[key]);
		            }
		            return a;
		        }
		        return new classs(a);
		    }
		    return a;
		}
	}
	export class Error {
	    code: string;
	    message: string;
	
	    static createFrom(source: any = {}) {
	        return new Error(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.code = source["code"];
	        this.message = source["message"];
	    }
	}
	export class IndexDoneEvent {
	    papers: number;
	    pages: number;
	    errors: number;
	    seconds: number;
	    extracted: number;
	    removed: number;
	
	    static createFrom(source: any = {}) {
	        return new IndexDoneEvent(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.papers = source["papers"];
	        this.pages = source["pages"];
	        this.errors = source["errors"];
	        this.seconds = source["seconds"];
	        this.extracted = source["extracted"];
	        this.removed = source["removed"];
	    }
	}
	export class IndexProgressEvent {
	    done: number;
	    total: number;
	    current: string;
	    step?: string;
	    page?: number;
	    pages?: number;
	
	    static createFrom(source: any = {}) {
	        return new IndexProgressEvent(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.done = source["done"];
	        this.total = source["total"];
	        this.current = source["current"];
	        this.step = source["step"];
	        this.page = source["page"];
	        this.pages = source["pages"];
	    }
	}
	export class IntakeProgressEvent {
	    done: number;
	    total: number;
	    current: string;
	
	    static createFrom(source: any = {}) {
	        return new IntakeProgressEvent(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.done = source["done"];
	        this.total = source["total"];
	        this.current = source["current"];
	    }
	}
	export class LibraryChangedEvent {
	    paths?: string[];
	
	    static createFrom(source: any = {}) {
	        return new LibraryChangedEvent(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.paths = source["paths"];
	    }
	}
	export class VaultOpenedEvent {
	    path: string;
	    error: string;
	
	    static createFrom(source: any = {}) {
	        return new VaultOpenedEvent(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.path = source["path"];
	        this.error = source["error"];
	    }
	}
	export class WatchStatusEvent {
	    mode: string;
	    notice: string;
	
	    static createFrom(source: any = {}) {
	        return new WatchStatusEvent(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.mode = source["mode"];
	        this.notice = source["notice"];
	    }
	}
	export class Payloads {
	    "index:progress": IndexProgressEvent;
	    "index:done": IndexDoneEvent;
	    "library:changed": LibraryChangedEvent;
	    "watch:status": WatchStatusEvent;
	    "intake:progress": IntakeProgressEvent;
	    "agent:status": AgentStatusEvent;
	    "agent:chunk": AgentChunkEvent;
	    "agent:tool": AgentToolEvent;
	    "agent:plan": AgentPlanEvent;
	    "agent:completed": AgentCompletedEvent;
	    "agent:error": AgentErrorEvent;
	    "agent:permission": AgentPermissionEvent;
	    "vault:opened": VaultOpenedEvent;
	    error: Error;
	
	    static createFrom(source: any = {}) {
	        return new Payloads(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this["index:progress"] = this.convertValues(source["index:progress"], IndexProgressEvent);
	        this["index:done"] = this.convertValues(source["index:done"], IndexDoneEvent);
	        this["library:changed"] = this.convertValues(source["library:changed"], LibraryChangedEvent);
	        this["watch:status"] = this.convertValues(source["watch:status"], WatchStatusEvent);
	        this["intake:progress"] = this.convertValues(source["intake:progress"], IntakeProgressEvent);
	        this["agent:status"] = this.convertValues(source["agent:status"], AgentStatusEvent);
	        this["agent:chunk"] = this.convertValues(source["agent:chunk"], AgentChunkEvent);
	        this["agent:tool"] = this.convertValues(source["agent:tool"], AgentToolEvent);
	        this["agent:plan"] = this.convertValues(source["agent:plan"], AgentPlanEvent);
	        this["agent:completed"] = this.convertValues(source["agent:completed"], AgentCompletedEvent);
	        this["agent:error"] = this.convertValues(source["agent:error"], AgentErrorEvent);
	        this["agent:permission"] = this.convertValues(source["agent:permission"], AgentPermissionEvent);
	        this["vault:opened"] = this.convertValues(source["vault:opened"], VaultOpenedEvent);
	        this.error = this.convertValues(source["error"], Error);
	    }
	
		convertValues(a: any, classs: any, asMap: boolean = false): any {
		    if (!a) {
		        return a;
		    }
		    if (a.slice && a.map) {
		        return (a as any[]).map(elem => this.convertValues(elem, classs));
		    } else if ("object" === typeof a) {
		        if (asMap) {
		            for (const key of Object.keys(a)) {
		                a[key] = new classs(a[key]);
		            }
		            return a;
		        }
		        return new classs(a);
		    }
		    return a;
		}
	}
	
	
	
	
	

}

export namespace grant {
	
	export class Budget {
	    searchCards: number;
	    cardsPerPaper: number;
	    excerptChars: number;
	    fullChars: number;
	    dirEntries: number;
	    turnChars: number;
	
	    static createFrom(source: any = {}) {
	        return new Budget(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.searchCards = source["searchCards"];
	        this.cardsPerPaper = source["cardsPerPaper"];
	        this.excerptChars = source["excerptChars"];
	        this.fullChars = source["fullChars"];
	        this.dirEntries = source["dirEntries"];
	        this.turnChars = source["turnChars"];
	    }
	}
	export class Source {
	    kind: string;
	    ref: string;
	
	    static createFrom(source: any = {}) {
	        return new Source(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.kind = source["kind"];
	        this.ref = source["ref"];
	    }
	}

}

export namespace index {
	
	export class Completion {
	    kind: string;
	    path: string;
	    title?: string;
	
	    static createFrom(source: any = {}) {
	        return new Completion(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.kind = source["kind"];
	        this.path = source["path"];
	        this.title = source["title"];
	    }
	}
	export class Rect {
	    x: number;
	    y: number;
	    width: number;
	    height: number;
	
	    static createFrom(source: any = {}) {
	        return new Rect(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.x = source["x"];
	        this.y = source["y"];
	        this.width = source["width"];
	        this.height = source["height"];
	    }
	}
	export class Figure {
	    ref: string;
	    title: string;
	    page: number;
	    pageLabel: string;
	    kind: string;
	    label: string;
	    caption: string;
	    region: Rect;
	    box: Rect;
	    citationUri: string;
	
	    static createFrom(source: any = {}) {
	        return new Figure(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.ref = source["ref"];
	        this.title = source["title"];
	        this.page = source["page"];
	        this.pageLabel = source["pageLabel"];
	        this.kind = source["kind"];
	        this.label = source["label"];
	        this.caption = source["caption"];
	        this.region = this.convertValues(source["region"], Rect);
	        this.box = this.convertValues(source["box"], Rect);
	        this.citationUri = source["citationUri"];
	    }
	
		convertValues(a: any, classs: any, asMap: boolean = false): any {
		    if (!a) {
		        return a;
		    }
		    if (a.slice && a.map) {
		        return (a as any[]).map(elem => this.convertValues(elem, classs));
		    } else if ("object" === typeof a) {
		        if (asMap) {
		            for (const key of Object.keys(a)) {
		                a[key] = new classs(a[key]);
		            }
		            return a;
		        }
		        return new classs(a);
		    }
		    return a;
		}
	}
	export class Hit {
	    ref: string;
	    path?: string;
	    title: string;
	    page: number;
	    pageLabel: string;
	    section?: string;
	    snippet: string;
	    quote: string;
	    citationUri: string;
	
	    static createFrom(source: any = {}) {
	        return new Hit(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.ref = source["ref"];
	        this.path = source["path"];
	        this.title = source["title"];
	        this.page = source["page"];
	        this.pageLabel = source["pageLabel"];
	        this.section = source["section"];
	        this.snippet = source["snippet"];
	        this.quote = source["quote"];
	        this.citationUri = source["citationUri"];
	    }
	}
	export class Paper {
	    ref: string;
	    pdfPath: string;
	    title: string;
	    titleSource: string;
	    authors: string[];
	    year: number;
	    doi: string;
	    arxivId: string;
	    abstract: string;
	    pages: number;
	    noTextPages: number;
	    status: string;
	    error: string;
	    sha256: string;
	    added: number;
	    tags: string[];
	
	    static createFrom(source: any = {}) {
	        return new Paper(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.ref = source["ref"];
	        this.pdfPath = source["pdfPath"];
	        this.title = source["title"];
	        this.titleSource = source["titleSource"];
	        this.authors = source["authors"];
	        this.year = source["year"];
	        this.doi = source["doi"];
	        this.arxivId = source["arxivId"];
	        this.abstract = source["abstract"];
	        this.pages = source["pages"];
	        this.noTextPages = source["noTextPages"];
	        this.status = source["status"];
	        this.error = source["error"];
	        this.sha256 = source["sha256"];
	        this.added = source["added"];
	        this.tags = source["tags"];
	    }
	}
	
	export class Section {
	    level: number;
	    title: string;
	    page: number;
	
	    static createFrom(source: any = {}) {
	        return new Section(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.level = source["level"];
	        this.title = source["title"];
	        this.page = source["page"];
	    }
	}

}

export namespace intake {
	
	export class Found {
	    vault: boolean;
	    papers: number;
	    topPdfs: string[];
	    nestedPdfs: string[];
	
	    static createFrom(source: any = {}) {
	        return new Found(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.vault = source["vault"];
	        this.papers = source["papers"];
	        this.topPdfs = source["topPdfs"];
	        this.nestedPdfs = source["nestedPdfs"];
	    }
	}
	export class Item {
	    file?: string;
	    key?: string;
	    title?: string;
	    ref?: string;
	    why?: string;
	    changed?: string[];
	    note?: string;
	
	    static createFrom(source: any = {}) {
	        return new Item(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.file = source["file"];
	        this.key = source["key"];
	        this.title = source["title"];
	        this.ref = source["ref"];
	        this.why = source["why"];
	        this.changed = source["changed"];
	        this.note = source["note"];
	    }
	}
	export class LinkedBase {
	    dataDir: string;
	    baseDir: string;
	    missing: number;
	
	    static createFrom(source: any = {}) {
	        return new LinkedBase(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.dataDir = source["dataDir"];
	        this.baseDir = source["baseDir"];
	        this.missing = source["missing"];
	    }
	}
	export class Move {
	    from: string;
	    to: string;
	    title?: string;
	    authors?: string[];
	    year?: number;
	
	    static createFrom(source: any = {}) {
	        return new Move(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.from = source["from"];
	        this.to = source["to"];
	        this.title = source["title"];
	        this.authors = source["authors"];
	        this.year = source["year"];
	    }
	}
	export class Report {
	    added: Item[];
	    updated: Item[];
	    unchanged: Item[];
	    skipped: Item[];
	    withoutPdf: Item[];
	    errors: Item[];
	    gone: Item[];
	    linkedBase?: LinkedBase;
	
	    static createFrom(source: any = {}) {
	        return new Report(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.added = this.convertValues(source["added"], Item);
	        this.updated = this.convertValues(source["updated"], Item);
	        this.unchanged = this.convertValues(source["unchanged"], Item);
	        this.skipped = this.convertValues(source["skipped"], Item);
	        this.withoutPdf = this.convertValues(source["withoutPdf"], Item);
	        this.errors = this.convertValues(source["errors"], Item);
	        this.gone = this.convertValues(source["gone"], Item);
	        this.linkedBase = this.convertValues(source["linkedBase"], LinkedBase);
	    }
	
		convertValues(a: any, classs: any, asMap: boolean = false): any {
		    if (!a) {
		        return a;
		    }
		    if (a.slice && a.map) {
		        return (a as any[]).map(elem => this.convertValues(elem, classs));
		    } else if ("object" === typeof a) {
		        if (asMap) {
		            for (const key of Object.keys(a)) {
		                a[key] = new classs(a[key]);
		            }
		            return a;
		        }
		        return new classs(a);
		    }
		    return a;
		}
	}

}

export namespace library {
	
	export class State {
	    path: string;
	    name: string;
	    watchMode: string;
	    watchNotice: string;
	    indexNotice: string;
	    indexing: boolean;
	
	    static createFrom(source: any = {}) {
	        return new State(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.path = source["path"];
	        this.name = source["name"];
	        this.watchMode = source["watchMode"];
	        this.watchNotice = source["watchNotice"];
	        this.indexNotice = source["indexNotice"];
	        this.indexing = source["indexing"];
	    }
	}

}

export namespace main {
	
	export class AddAgentRequest {
	    agent: agentconf.Agent;
	    makeDefault: boolean;
	    force: boolean;
	    checkId: string;
	
	    static createFrom(source: any = {}) {
	        return new AddAgentRequest(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.agent = this.convertValues(source["agent"], agentconf.Agent);
	        this.makeDefault = source["makeDefault"];
	        this.force = source["force"];
	        this.checkId = source["checkId"];
	    }
	
		convertValues(a: any, classs: any, asMap: boolean = false): any {
		    if (!a) {
		        return a;
		    }
		    if (a.slice && a.map) {
		        return (a as any[]).map(elem => this.convertValues(elem, classs));
		    } else if ("object" === typeof a) {
		        if (asMap) {
		            for (const key of Object.keys(a)) {
		                a[key] = new classs(a[key]);
		            }
		            return a;
		        }
		        return new classs(a);
		    }
		    return a;
		}
	}
	export class LinkResult {
	    link: string;
	    target?: workspace.LinkTarget;
	    error: string;
	    code?: string;
	    unknownVault: boolean;
	
	    static createFrom(source: any = {}) {
	        return new LinkResult(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.link = source["link"];
	        this.target = this.convertValues(source["target"], workspace.LinkTarget);
	        this.error = source["error"];
	        this.code = source["code"];
	        this.unknownVault = source["unknownVault"];
	    }
	
		convertValues(a: any, classs: any, asMap: boolean = false): any {
		    if (!a) {
		        return a;
		    }
		    if (a.slice && a.map) {
		        return (a as any[]).map(elem => this.convertValues(elem, classs));
		    } else if ("object" === typeof a) {
		        if (asMap) {
		            for (const key of Object.keys(a)) {
		                a[key] = new classs(a[key]);
		            }
		            return a;
		        }
		        return new classs(a);
		    }
		    return a;
		}
	}

}

export namespace metadata {
	
	export class Values {
	    title: string;
	    authors: string[];
	    year: number;
	    doi: string;
	    arxivId: string;
	    tags: string[];
	    abstract: string;
	
	    static createFrom(source: any = {}) {
	        return new Values(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.title = source["title"];
	        this.authors = source["authors"];
	        this.year = source["year"];
	        this.doi = source["doi"];
	        this.arxivId = source["arxivId"];
	        this.tags = source["tags"];
	        this.abstract = source["abstract"];
	    }
	}
	export class Details {
	    ref: string;
	    values: Values;
	    edited: string[];
	    source: Record<string, string>;
	    exists: boolean;
	
	    static createFrom(source: any = {}) {
	        return new Details(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.ref = source["ref"];
	        this.values = this.convertValues(source["values"], Values);
	        this.edited = source["edited"];
	        this.source = source["source"];
	        this.exists = source["exists"];
	    }
	
		convertValues(a: any, classs: any, asMap: boolean = false): any {
		    if (!a) {
		        return a;
		    }
		    if (a.slice && a.map) {
		        return (a as any[]).map(elem => this.convertValues(elem, classs));
		    } else if ("object" === typeof a) {
		        if (asMap) {
		            for (const key of Object.keys(a)) {
		                a[key] = new classs(a[key]);
		            }
		            return a;
		        }
		        return new classs(a);
		    }
		    return a;
		}
	}
	export class Report {
	    ref: string;
	    source: string;
	    id: string;
	    wrote: string[];
	    error?: string;
	
	    static createFrom(source: any = {}) {
	        return new Report(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.ref = source["ref"];
	        this.source = source["source"];
	        this.id = source["id"];
	        this.wrote = source["wrote"];
	        this.error = source["error"];
	    }
	}

}

export namespace plan {
	
	export class Card {
	    kind: string;
	    ref: string;
	    title: string;
	    page?: number;
	    pageLabel?: string;
	    section?: string;
	    quote?: string;
	    cut: boolean;
	    citationUri: string;
	
	    static createFrom(source: any = {}) {
	        return new Card(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.kind = source["kind"];
	        this.ref = source["ref"];
	        this.title = source["title"];
	        this.page = source["page"];
	        this.pageLabel = source["pageLabel"];
	        this.section = source["section"];
	        this.quote = source["quote"];
	        this.cut = source["cut"];
	        this.citationUri = source["citationUri"];
	    }
	}
	export class Mention {
	    kind: string;
	    path: string;
	
	    static createFrom(source: any = {}) {
	        return new Mention(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.kind = source["kind"];
	        this.path = source["path"];
	    }
	}
	export class Refusal {
	    kind: string;
	    path: string;
	    reason: string;
	
	    static createFrom(source: any = {}) {
	        return new Refusal(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.kind = source["kind"];
	        this.path = source["path"];
	        this.reason = source["reason"];
	    }
	}
	export class Plan {
	    surface: string;
	    mode: string;
	    fingerprint: string;
	    tools: string[];
	    allowed: grant.Source[];
	    budget: grant.Budget;
	    evidence: Card[];
	    refused?: Refusal[];
	
	    static createFrom(source: any = {}) {
	        return new Plan(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.surface = source["surface"];
	        this.mode = source["mode"];
	        this.fingerprint = source["fingerprint"];
	        this.tools = source["tools"];
	        this.allowed = this.convertValues(source["allowed"], grant.Source);
	        this.budget = this.convertValues(source["budget"], grant.Budget);
	        this.evidence = this.convertValues(source["evidence"], Card);
	        this.refused = this.convertValues(source["refused"], Refusal);
	    }
	
		convertValues(a: any, classs: any, asMap: boolean = false): any {
		    if (!a) {
		        return a;
		    }
		    if (a.slice && a.map) {
		        return (a as any[]).map(elem => this.convertValues(elem, classs));
		    } else if ("object" === typeof a) {
		        if (asMap) {
		            for (const key of Object.keys(a)) {
		                a[key] = new classs(a[key]);
		            }
		            return a;
		        }
		        return new classs(a);
		    }
		    return a;
		}
	}
	
	export class Selection {
	    sourcePath: string;
	    page?: number;
	    text: string;
	    rects?: number[][];
	
	    static createFrom(source: any = {}) {
	        return new Selection(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.sourcePath = source["sourcePath"];
	        this.page = source["page"];
	        this.text = source["text"];
	        this.rects = source["rects"];
	    }
	}
	export class Request {
	    surface: string;
	    currentPaper?: string;
	    selections: Selection[];
	    mentions: Mention[];
	    remote: boolean;
	
	    static createFrom(source: any = {}) {
	        return new Request(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.surface = source["surface"];
	        this.currentPaper = source["currentPaper"];
	        this.selections = this.convertValues(source["selections"], Selection);
	        this.mentions = this.convertValues(source["mentions"], Mention);
	        this.remote = source["remote"];
	    }
	
		convertValues(a: any, classs: any, asMap: boolean = false): any {
		    if (!a) {
		        return a;
		    }
		    if (a.slice && a.map) {
		        return (a as any[]).map(elem => this.convertValues(elem, classs));
		    } else if ("object" === typeof a) {
		        if (asMap) {
		            for (const key of Object.keys(a)) {
		                a[key] = new classs(a[key]);
		            }
		            return a;
		        }
		        return new classs(a);
		    }
		    return a;
		}
	}

}

export namespace refs {
	
	export class Card {
	    title: string;
	    year: number;
	    doi: string;
	    arxivId: string;
	    paperPath: string;
	    matchBy: string;
	    citationUri: string;
	
	    static createFrom(source: any = {}) {
	        return new Card(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.title = source["title"];
	        this.year = source["year"];
	        this.doi = source["doi"];
	        this.arxivId = source["arxivId"];
	        this.paperPath = source["paperPath"];
	        this.matchBy = source["matchBy"];
	        this.citationUri = source["citationUri"];
	    }
	}

}

export namespace settings {
	
	export class Settings {
	    budget: grant.Budget;
	    metadataOnline: boolean;
	    metadataOnlineAsked: boolean;
	    contactEmail: string;
	
	    static createFrom(source: any = {}) {
	        return new Settings(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.budget = this.convertValues(source["budget"], grant.Budget);
	        this.metadataOnline = source["metadataOnline"];
	        this.metadataOnlineAsked = source["metadataOnlineAsked"];
	        this.contactEmail = source["contactEmail"];
	    }
	
		convertValues(a: any, classs: any, asMap: boolean = false): any {
		    if (!a) {
		        return a;
		    }
		    if (a.slice && a.map) {
		        return (a as any[]).map(elem => this.convertValues(elem, classs));
		    } else if ("object" === typeof a) {
		        if (asMap) {
		            for (const key of Object.keys(a)) {
		                a[key] = new classs(a[key]);
		            }
		            return a;
		        }
		        return new classs(a);
		    }
		    return a;
		}
	}

}

export namespace workspace {
	
	export class AgentView {
	    snapshot: string;
	    issues: string[];
	    history: compact.Result;
	    transcript: string;
	    lastPrompt?: conversation.SentPrompt;
	    lastTools: events.AgentToolEvent[];
	
	    static createFrom(source: any = {}) {
	        return new AgentView(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.snapshot = source["snapshot"];
	        this.issues = source["issues"];
	        this.history = this.convertValues(source["history"], compact.Result);
	        this.transcript = source["transcript"];
	        this.lastPrompt = this.convertValues(source["lastPrompt"], conversation.SentPrompt);
	        this.lastTools = this.convertValues(source["lastTools"], events.AgentToolEvent);
	    }
	
		convertValues(a: any, classs: any, asMap: boolean = false): any {
		    if (!a) {
		        return a;
		    }
		    if (a.slice && a.map) {
		        return (a as any[]).map(elem => this.convertValues(elem, classs));
		    } else if ("object" === typeof a) {
		        if (asMap) {
		            for (const key of Object.keys(a)) {
		                a[key] = new classs(a[key]);
		            }
		            return a;
		        }
		        return new classs(a);
		    }
		    return a;
		}
	}
	export class AskRequest {
	    conversationId: string;
	    agent: string;
	    request: plan.Request;
	    question: string;
	
	    static createFrom(source: any = {}) {
	        return new AskRequest(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.conversationId = source["conversationId"];
	        this.agent = source["agent"];
	        this.request = this.convertValues(source["request"], plan.Request);
	        this.question = source["question"];
	    }
	
		convertValues(a: any, classs: any, asMap: boolean = false): any {
		    if (!a) {
		        return a;
		    }
		    if (a.slice && a.map) {
		        return (a as any[]).map(elem => this.convertValues(elem, classs));
		    } else if ("object" === typeof a) {
		        if (asMap) {
		            for (const key of Object.keys(a)) {
		                a[key] = new classs(a[key]);
		            }
		            return a;
		        }
		        return new classs(a);
		    }
		    return a;
		}
	}
	export class ContextDocs {
	    docs: docs.Doc[];
	    problems: docs.Problem[];
	
	    static createFrom(source: any = {}) {
	        return new ContextDocs(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.docs = this.convertValues(source["docs"], docs.Doc);
	        this.problems = this.convertValues(source["problems"], docs.Problem);
	    }
	
		convertValues(a: any, classs: any, asMap: boolean = false): any {
		    if (!a) {
		        return a;
		    }
		    if (a.slice && a.map) {
		        return (a as any[]).map(elem => this.convertValues(elem, classs));
		    } else if ("object" === typeof a) {
		        if (asMap) {
		            for (const key of Object.keys(a)) {
		                a[key] = new classs(a[key]);
		            }
		            return a;
		        }
		        return new classs(a);
		    }
		    return a;
		}
	}
	export class ExportRequest {
	    conversationId: string;
	    messageId: string;
	    format: string;
	
	    static createFrom(source: any = {}) {
	        return new ExportRequest(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.conversationId = source["conversationId"];
	        this.messageId = source["messageId"];
	        this.format = source["format"];
	    }
	}
	export class Folder {
	    path: string;
	    found?: intake.Found;
	
	    static createFrom(source: any = {}) {
	        return new Folder(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.path = source["path"];
	        this.found = this.convertValues(source["found"], intake.Found);
	    }
	
		convertValues(a: any, classs: any, asMap: boolean = false): any {
		    if (!a) {
		        return a;
		    }
		    if (a.slice && a.map) {
		        return (a as any[]).map(elem => this.convertValues(elem, classs));
		    } else if ("object" === typeof a) {
		        if (asMap) {
		            for (const key of Object.keys(a)) {
		                a[key] = new classs(a[key]);
		            }
		            return a;
		        }
		        return new classs(a);
		    }
		    return a;
		}
	}
	export class Layout {
	    sizes: Record<string, number>;
	    collapsed: Record<string, boolean>;
	
	    static createFrom(source: any = {}) {
	        return new Layout(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.sizes = source["sizes"];
	        this.collapsed = source["collapsed"];
	    }
	}
	export class LinkTarget {
	    vault: string;
	    ref: string;
	    pdfPath: string;
	    title: string;
	    page: number;
	    quote: string;
	    citationUri?: string;
	    vaultChanged: boolean;
	
	    static createFrom(source: any = {}) {
	        return new LinkTarget(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.vault = source["vault"];
	        this.ref = source["ref"];
	        this.pdfPath = source["pdfPath"];
	        this.title = source["title"];
	        this.page = source["page"];
	        this.quote = source["quote"];
	        this.citationUri = source["citationUri"];
	        this.vaultChanged = source["vaultChanged"];
	    }
	}
	export class PageRects {
	    page: number;
	    rects: number[][];
	
	    static createFrom(source: any = {}) {
	        return new PageRects(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.page = source["page"];
	        this.rects = source["rects"];
	    }
	}
	export class Location {
	    uri: string;
	    path: string;
	    citedPage: number;
	    page: number;
	    rects: number[][];
	    text: string;
	    found: boolean;
	    foundPage: number;
	    next?: PageRects;
	    width: number;
	    height: number;
	    why: string;
	
	    static createFrom(source: any = {}) {
	        return new Location(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.uri = source["uri"];
	        this.path = source["path"];
	        this.citedPage = source["citedPage"];
	        this.page = source["page"];
	        this.rects = source["rects"];
	        this.text = source["text"];
	        this.found = source["found"];
	        this.foundPage = source["foundPage"];
	        this.next = this.convertValues(source["next"], PageRects);
	        this.width = source["width"];
	        this.height = source["height"];
	        this.why = source["why"];
	    }
	
		convertValues(a: any, classs: any, asMap: boolean = false): any {
		    if (!a) {
		        return a;
		    }
		    if (a.slice && a.map) {
		        return (a as any[]).map(elem => this.convertValues(elem, classs));
		    } else if ("object" === typeof a) {
		        if (asMap) {
		            for (const key of Object.keys(a)) {
		                a[key] = new classs(a[key]);
		            }
		            return a;
		        }
		        return new classs(a);
		    }
		    return a;
		}
	}
	export class LoopbackStatus {
	    enabled: boolean;
	    running: boolean;
	    port: number;
	    url: string;
	    token: string;
	    vault: string;
	    error: string;
	    command: string;
	
	    static createFrom(source: any = {}) {
	        return new LoopbackStatus(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.enabled = source["enabled"];
	        this.running = source["running"];
	        this.port = source["port"];
	        this.url = source["url"];
	        this.token = source["token"];
	        this.vault = source["vault"];
	        this.error = source["error"];
	        this.command = source["command"];
	    }
	}
	export class OnlineReport {
	    running: boolean;
	    // Go type: time
	    started: any;
	    // Go type: time
	    finished: any;
	    papers: number;
	    updated: number;
	    failed: number;
	    reports: metadata.Report[];
	
	    static createFrom(source: any = {}) {
	        return new OnlineReport(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.running = source["running"];
	        this.started = this.convertValues(source["started"], null);
	        this.finished = this.convertValues(source["finished"], null);
	        this.papers = source["papers"];
	        this.updated = source["updated"];
	        this.failed = source["failed"];
	        this.reports = this.convertValues(source["reports"], metadata.Report);
	    }
	
		convertValues(a: any, classs: any, asMap: boolean = false): any {
		    if (!a) {
		        return a;
		    }
		    if (a.slice && a.map) {
		        return (a as any[]).map(elem => this.convertValues(elem, classs));
		    } else if ("object" === typeof a) {
		        if (asMap) {
		            for (const key of Object.keys(a)) {
		                a[key] = new classs(a[key]);
		            }
		            return a;
		        }
		        return new classs(a);
		    }
		    return a;
		}
	}
	
	export class RecentVault {
	    path: string;
	    name: string;
	    missing: boolean;
	    current: boolean;
	
	    static createFrom(source: any = {}) {
	        return new RecentVault(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.path = source["path"];
	        this.name = source["name"];
	        this.missing = source["missing"];
	        this.current = source["current"];
	    }
	}
	export class Relations {
	    references: refs.Card[];
	    citedBy: refs.Card[];
	    related: refs.Card[];
	
	    static createFrom(source: any = {}) {
	        return new Relations(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.references = this.convertValues(source["references"], refs.Card);
	        this.citedBy = this.convertValues(source["citedBy"], refs.Card);
	        this.related = this.convertValues(source["related"], refs.Card);
	    }
	
		convertValues(a: any, classs: any, asMap: boolean = false): any {
		    if (!a) {
		        return a;
		    }
		    if (a.slice && a.map) {
		        return (a as any[]).map(elem => this.convertValues(elem, classs));
		    } else if ("object" === typeof a) {
		        if (asMap) {
		            for (const key of Object.keys(a)) {
		                a[key] = new classs(a[key]);
		            }
		            return a;
		        }
		        return new classs(a);
		    }
		    return a;
		}
	}
	export class SaveAgentRequest {
	    agent: agentconf.Agent;
	    makeDefault: boolean;
	    force: boolean;
	    checkId: string;
	
	    static createFrom(source: any = {}) {
	        return new SaveAgentRequest(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.agent = this.convertValues(source["agent"], agentconf.Agent);
	        this.makeDefault = source["makeDefault"];
	        this.force = source["force"];
	        this.checkId = source["checkId"];
	    }
	
		convertValues(a: any, classs: any, asMap: boolean = false): any {
		    if (!a) {
		        return a;
		    }
		    if (a.slice && a.map) {
		        return (a as any[]).map(elem => this.convertValues(elem, classs));
		    } else if ("object" === typeof a) {
		        if (asMap) {
		            for (const key of Object.keys(a)) {
		                a[key] = new classs(a[key]);
		            }
		            return a;
		        }
		        return new classs(a);
		    }
		    return a;
		}
	}

}

