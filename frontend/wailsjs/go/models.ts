export namespace index {
	
	export class Hit {
	    ref: string;
	    title: string;
	    page: number;
	    pageLabel: string;
	    snippet: string;
	    citationUri: string;
	
	    static createFrom(source: any = {}) {
	        return new Hit(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.ref = source["ref"];
	        this.title = source["title"];
	        this.page = source["page"];
	        this.pageLabel = source["pageLabel"];
	        this.snippet = source["snippet"];
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
	    }
	}

}

export namespace library {
	
	export class State {
	    path: string;
	    name: string;
	    watchMode: string;
	    watchNotice: string;
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
	        this.indexing = source["indexing"];
	    }
	}

}

