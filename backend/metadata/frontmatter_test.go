package metadata

import (
	"strings"
	"testing"

	"github.com/agentero/agentero/backend/pdf"
)

// frontPage is a first page as PDFium gives it, written for these tests in
// the styles papers come in (none is a corpus paper's): its lines with
// their sizes, and what a researcher would cite it as.
type frontPage struct {
	style   string
	lines   []pdf.Line
	title   string
	authors []string // the first ones, in order; nil: none can be read
	year    int
	created int // the PDF's creation year
}

// l is a line set in size pt.
func l(size float64, text string) pdf.Line { return pdf.Line{Text: text, Size: size} }

// frontPages are held out from the corpus: the rules are checked on
// papers they were not written from.
var frontPages = []frontPage{
	{style: "ACM sigconf, names on one line, affiliations under them, reference format and rights block", lines: []pdf.Line{
		l(14.4, "Fast Approximate Joins over Compressed Column Stores"),
		l(12, "Maria Ortega"), l(10, "University of Toronto"), l(10, "Toronto, Canada"), l(10, "mortega@cs.toronto.edu"),
		l(12, "Wei Chen"), l(10, "Tsinghua University"), l(10, "Beijing, China"), l(10, "wchen@tsinghua.edu.cn"),
		l(9, "ABSTRACT"),
		l(9, "Joins over compressed columns are slow because every probe decompresses a block. We show how to probe without it."),
		l(9, "CCS CONCEPTS"), l(9, "• Information systems → Join algorithms; Data compression."),
		l(9, "KEYWORDS"), l(9, "column stores, joins, compression"),
		l(9, "ACM Reference Format:"),
		l(9, "Maria Ortega and Wei Chen. 2019. Fast Approximate Joins over Compressed Column Stores. In 2019 International Conference on Management of Data (SIGMOD ’19), June 30-July 5, 2019, Amsterdam, Netherlands. ACM, New York, NY, USA, 14 pages. https://doi.org/10.1145/3299869.3319880"),
		l(7, "Permission to make digital or hard copies of all or part of this work for personal or classroom use is granted without fee."),
		l(7, "SIGMOD ’19, June 30-July 5, 2019, Amsterdam, Netherlands"),
		l(7, "© 2019 Association for Computing Machinery."),
		l(7, "ACM ISBN 978-1-4503-5643-5/19/06. . . $15.00"),
	}, title: "Fast Approximate Joins over Compressed Column Stores", authors: []string{"Maria Ortega", "Wei Chen"}, year: 2019, created: 2021},

	{style: "IEEE Transactions, membership grades after names, manuscript dates", lines: []pdf.Line{
		l(7, "IEEE TRANSACTIONS ON KNOWLEDGE AND DATA ENGINEERING, VOL. 28, NO. 4, APRIL 2016"),
		l(24, "Incremental Maintenance of Learned Indexes"),
		l(24, "under Skewed Updates"),
		l(11, "Li Wei, Member, IEEE, Jane Q. Public, Senior Member, IEEE, and Tomás García, Fellow, IEEE"),
		l(9, "Abstract—Learned indexes replace a B-tree with a model of the key distribution; updates break the model."),
		l(9, "Index Terms—Learned index, B-tree, updates"),
		l(8, "• L. Wei and J.Q. Public are with the Department of Computer Science, Purdue University, West Lafayette, IN 47907."),
		l(8, "Manuscript received 12 Mar. 2014; revised 3 Nov. 2015; accepted 20 Nov. 2015. Date of publication 1 Dec. 2015; date of current version 2 Mar. 2016."),
	}, title: "Incremental Maintenance of Learned Indexes under Skewed Updates", authors: []string{"Li Wei", "Jane Q. Public", "Tomás García"}, year: 2016, created: 2018},

	{style: "LNCS, numbered affiliations, emails in braces, Springer copyright and volume line", lines: []pdf.Line{
		l(14, "Bounded Model Checking of Timed Automata"),
		l(14, "with Shared Clocks"),
		l(10, "Hans Müller1, Anja Schmidt2(B), and Pierre Dubois1"),
		l(9, "1 Technische Universität München, Munich, Germany"),
		l(9, "{mueller,dubois}@in.tum.de"),
		l(9, "2 Inria, Paris, France"),
		l(9, "anja.schmidt@inria.fr"),
		l(9, "Abstract. Timed automata with shared clocks are common in models of distributed protocols."),
		l(9, "Keywords: Model checking · Timed automata · SMT"),
		l(8, "© Springer Nature Switzerland AG 2020"),
		l(8, "A. Biere and D. Parker (Eds.): TACAS 2020, LNCS 12079, pp. 3–20, 2020."),
		l(8, "https://doi.org/10.1007/978-3-030-45237-7_1"),
	}, title: "Bounded Model Checking of Timed Automata with Shared Clocks", authors: []string{"Hans Müller", "Anja Schmidt", "Pierre Dubois"}, year: 2020, created: 2022},

	{style: "USENIX cover page: names with institutions, proceedings line", lines: []pdf.Line{
		l(20, "Spindle: Recovering Fast from Disk Failures"),
		l(20, "in Erasure-Coded Storage"),
		l(11, "Anna Kowalski and Brian O’Neil, Carnegie Mellon University;"),
		l(11, "Chen Li, VMware Research"),
		l(10, "https://www.usenix.org/conference/fast20/presentation/kowalski"),
		l(10, "This paper is included in the Proceedings of the"),
		l(10, "18th USENIX Conference on File and Storage Technologies (FAST ’20)"),
		l(10, "February 25–27, 2020 • Santa Clara, CA, USA"),
		l(10, "978-1-939133-12-0"),
	}, title: "Spindle: Recovering Fast from Disk Failures in Erasure-Coded Storage", authors: []string{"Anna Kowalski", "Brian O’Neil", "Chen Li"}, year: 2020, created: 2022},

	{style: "arXiv preprint (ICML style): marks between names on one line, stamp in the margin", lines: []pdf.Line{
		l(20, "arXiv:2103.00017v2 [cs.LG] 14 Jul 2021"),
		l(14.3, "Sparse Mixtures of Experts Are Domain-Generalizable Learners"),
		l(10, "Rui Zhang * 1 Omar Haddad * 1 Sofia Lindqvist 2 Dmitri Volkov 1"),
		l(8, "*Equal contribution 1Department of Statistics, University of Oxford 2Google Research. Correspondence to: Rui Zhang <rui.zhang@stats.ox.ac.uk>."),
		l(10, "Abstract"),
		l(10, "Mixture-of-experts layers route each token to a few experts."),
	}, title: "Sparse Mixtures of Experts Are Domain-Generalizable Learners", authors: []string{"Rui Zhang", "Omar Haddad", "Sofia Lindqvist", "Dmitri Volkov"}, year: 2021, created: 2023},

	{style: "arXiv version posted after the conference: the venue in the foot wins over the stamp", lines: []pdf.Line{
		l(20, "arXiv:2106.01345v4 [cs.LG] 2 Mar 2023"),
		l(17, "Calibrated Uncertainty for Graph Neural Networks"),
		l(10, "Priya Raman"), l(9, "Department of Computer Science"), l(9, "University of Washington"),
		l(12, "Abstract"),
		l(10, "Graph neural networks are overconfident."),
		l(9, "35th Conference on Neural Information Processing Systems (NeurIPS 2021), Sydney, Australia."),
	}, title: "Calibrated Uncertainty for Graph Neural Networks", authors: []string{"Priya Raman"}, year: 2021, created: 2023},

	{style: "ICLR running head above the title, later stamp", lines: []pdf.Line{
		l(9, "Published as a conference paper at ICLR 2019"),
		l(17, "Learning Sparse Programs from Noisy Traces"),
		l(10, "Tobias Ek & Ana Lucía Ferreira"), l(9, "KTH Royal Institute of Technology"),
		l(12, "Abstract"),
		l(10, "We learn programs from traces."),
		l(20, "arXiv:1810.04444v3 [cs.LG] 11 Feb 2020"),
	}, title: "Learning Sparse Programs from Noisy Traces", authors: []string{"Tobias Ek", "Ana Lucía Ferreira"}, year: 2019, created: 2020},

	{style: "IEEE conference: author blocks one under the other, the rights line in the foot", lines: []pdf.Line{
		l(24, "Low-Latency Video Analytics on Edge Clusters"),
		l(11, "Alice Nguyen"), l(10, "Dept. of Electrical Engineering"), l(10, "Stanford University"), l(10, "Stanford, CA, USA"), l(10, "alice@stanford.edu"),
		l(11, "Bikram Patel"), l(10, "School of Computing"), l(10, "National University of Singapore"), l(10, "bpatel@comp.nus.edu.sg"),
		l(9, "Abstract—Video analytics on the edge must meet deadlines with little compute."),
		l(8, "978-1-7281-6251-5/20/$31.00 ©2020 IEEE"),
	}, title: "Low-Latency Video Analytics on Edge Clusters", authors: []string{"Alice Nguyen", "Bikram Patel"}, year: 2020, created: 2021},

	{style: "affiliations in parentheses after each name", lines: []pdf.Line{
		l(16, "Typed Holes for Live Functional Programming"),
		l(11, "Maria Rossi (Politecnico di Milano), Jonas Berg (KTH), and Li Na (Peking University)"),
		l(11, "Abstract"),
	}, title: "Typed Holes for Live Functional Programming", authors: []string{"Maria Rossi", "Jonas Berg", "Li Na"}, year: 0, created: 2018},

	{style: "book chapter: the chapter's number set larger than its title", lines: []pdf.Line{
		l(20, "Chapter 7"),
		l(16, "Concurrency Control in Replicated Databases"),
		l(11, "Gerhard Albrecht and Petra Nováková"),
		l(9, "© Springer-Verlag Berlin Heidelberg 2005"),
	}, title: "Concurrency Control in Replicated Databases", authors: []string{"Gerhard Albrecht", "Petra Nováková"}, year: 2005, created: 2012},

	{style: "Springer journal: received/accepted line, copyright holder with a plus", lines: []pdf.Line{
		l(8, "Distrib. Comput."), l(8, "DOI 10.1007/s00446-019-00351-x"),
		l(16, "Wait-free approximate agreement on graphs"),
		l(11, "Dariusz Kowalczyk1 · Emma Laurent2"),
		l(8, "Received: 12 March 2018 / Accepted: 5 June 2019 / Published online: 20 June 2019"),
		l(8, "© Springer-Verlag GmbH Germany, part of Springer Nature 2019"),
		l(9, "Abstract Approximate agreement asks processes to output values close to each other."),
	}, title: "Wait-free approximate agreement on graphs", authors: []string{"Dariusz Kowalczyk", "Emma Laurent"}, year: 2019, created: 2021},

	{style: "PNAS: names with superscript letters and commas, edited-by line", lines: []pdf.Line{
		l(18, "Climate-driven shifts in pollinator networks"),
		l(10, "Hannah K. Morrisona,b,1, Diego Álvarezc, and Ruth Okonkwoa"),
		l(8, "aDepartment of Ecology, University of Colorado, Boulder, CO 80309; bRocky Mountain Biological Laboratory, Crested Butte, CO 81224; cInstituto de Ecología, Xalapa 91070, Mexico"),
		l(8, "Edited by Jane Lubchenco, Oregon State University, Corvallis, OR, and approved June 1, 2015 (received for review March 3, 2015)"),
	}, title: "Climate-driven shifts in pollinator networks", authors: []string{"Hannah K. Morrison", "Diego Álvarez", "Ruth Okonkwo"}, year: 2015, created: 2016},

	{style: "names and their university on one line, an ampersand in the university's name", lines: []pdf.Line{
		l(17, "Clustered Standard Errors for Panel Models"),
		l(12, "Rosa Delgado, Texas A&M University, Nathan Gruber, Universität Wien"),
		l(12, "Abstract"),
	}, title: "Clustered Standard Errors for Panel Models", authors: []string{"Rosa Delgado", "Nathan Gruber"}, year: 0, created: 2019},

	{style: "JSTOR cover page of a 1985 article downloaded in 2016", lines: []pdf.Line{
		l(14, "A Kinetic Model of Lock Contention in Database Systems"),
		l(10, "Author(s): Howard B. Lindqvist and Mary E. Cole"),
		l(10, "Source: Journal of the ACM, Vol. 32, No. 2 (Apr., 1985), pp. 374-382"),
		l(10, "Published by: Association for Computing Machinery"),
		l(10, "Stable URL: http://www.jstor.org/stable/2345678"),
		l(10, "Accessed: 12-03-2016 05:12 UTC"),
		l(8, "This content downloaded from 128.2.10.23 on Sat, 12 Mar 2016 05:12:33 UTC"),
	}, title: "A Kinetic Model of Lock Contention in Database Systems", authors: []string{"Howard B. Lindqvist", "Mary E. Cole"}, year: 1985, created: 2016},

	{style: "ACM Transactions of the 1980s: names in capitals, key words, the rights line", lines: []pdf.Line{
		l(14, "Optimistic Recovery in Distributed Systems"),
		l(10, "ROBERT E. STROM and SHAULA YEMINI"),
		l(10, "IBM Thomas J. Watson Research Center"),
		l(9, "Optimistic recovery is a new technique supporting application-independent transparent recovery from processor failures in distributed systems."),
		l(9, "Categories and Subject Descriptors: C.2.4 [Computer-Communication Networks]: Distributed Systems"),
		l(9, "Additional Key Words and Phrases: checkpointing, message logging, rollback"),
		l(8, "Authors' address: IBM Thomas J. Watson Research Center, P.O. Box 218, Yorktown Heights, NY 10598."),
		l(8, "© 1985 ACM 0734-2071/85/0800-0204 $00.75"),
		l(8, "ACM Transactions on Computer Systems, Vol. 3, No. 3, August 1985, Pages 204-226."),
	}, title: "Optimistic Recovery in Distributed Systems", authors: []string{"Robert E. Strom", "Shaula Yemini"}, year: 1985, created: 2003},

	{style: "a journal's article-type label set above the title", lines: []pdf.Line{
		l(9, "Open Access"),
		l(24, "Research Article"),
		l(18, "Soil moisture memory shapes drought recovery in temperate forests"),
		l(10, "Helena Brandt1*, Jonas Åberg2 and Keiko Mori1"),
		l(8, "Received: 3 March 2020 / Accepted: 1 June 2020 / Published online: 1 July 2020"),
		l(8, "© The Author(s) 2020"),
	}, title: "Soil moisture memory shapes drought recovery in temperate forests", authors: []string{"Helena Brandt", "Jonas Åberg", "Keiko Mori"}, year: 2020, created: 2021},

	{style: "a report's series words under the title, before the name", lines: []pdf.Line{
		l(16, "Naming and Binding in Distributed Object Systems"),
		l(12, "Technical Report"),
		l(12, "Mira Castellanos"),
		l(11, "MIT-LCS-TR-412"),
		l(11, "May 1988"),
	}, title: "Naming and Binding in Distributed Object Systems", authors: []string{"Mira Castellanos"}, year: 1988, created: 2005},

	{style: "no abstract heading: the text under the names begins with \"By\"", lines: []pdf.Line{
		l(16, "Epidemic Broadcast Trees Revisited"),
		l(11, "Carla Mendes and Rui Oliveira"),
		l(10, "By contrast with flooding, tree-based broadcast sends each message once on each link."),
		l(10, "We show how to repair the trees."),
	}, title: "Epidemic Broadcast Trees Revisited", authors: []string{"Carla Mendes", "Rui Oliveira"}, year: 0, created: 2015},

	{style: "NBER working paper cover: series line and title in capitals, the bureau's address, the month", lines: []pdf.Line{
		l(12, "NBER WORKING PAPER SERIES"),
		l(14, "MINIMUM WAGES AND TEEN EMPLOYMENT IN RURAL COUNTIES"),
		l(12, "Laura J. Whitfield"),
		l(12, "Samuel Osei"),
		l(11, "Working Paper 12345"),
		l(11, "http://www.nber.org/papers/w12345"),
		l(11, "NATIONAL BUREAU OF ECONOMIC RESEARCH"),
		l(11, "1050 Massachusetts Avenue"),
		l(11, "Cambridge, MA 02138"),
		l(11, "June 2006"),
	}, title: "Minimum Wages and Teen Employment in Rural Counties", authors: []string{"Laura J. Whitfield", "Samuel Osei"}, year: 2006, created: 2008},

	{style: "research report cover: the report's number set large, the lab's address, the date", lines: []pdf.Line{
		l(10, "SRC Research Report 52"),
		l(18, "Leases: An Efficient Fault-Tolerant Mechanism"),
		l(18, "for Distributed File Cache Consistency"),
		l(12, "Ingrid Sørensen and Paul T. Whitaker"),
		l(11, "April 1, 1989"),
		l(10, "Systems Research Center"),
		l(10, "130 Lytton Avenue"),
		l(10, "Palo Alto, California 94301"),
	}, title: "Leases: An Efficient Fault-Tolerant Mechanism for Distributed File Cache Consistency", authors: []string{"Ingrid Sørensen", "Paul T. Whitaker"}, year: 1989, created: 1997},

	{style: "MDPI: marks and stars after the names with spaces, \"and\" before the last", lines: []pdf.Line{
		l(8, "Sensors 2021, 21, 4412. https://doi.org/10.3390/s21134412"),
		l(18, "Low-Power Gait Recognition with Inertial Sensors"),
		l(10, "Alice Nguyen 1,* , Bob Patel 2 and Carol Wu 1,2"),
		l(8, "1 School of Engineering, Deakin University, Geelong, VIC 3216, Australia"),
		l(8, "* Correspondence: alice.nguyen@deakin.edu.au"),
	}, title: "Low-Power Gait Recognition with Inertial Sensors", authors: []string{"Alice Nguyen", "Bob Patel", "Carol Wu"}, year: 2021, created: 2022},

	{style: "names with their addresses in angle brackets, a suffix after a comma", lines: []pdf.Line{
		l(16, "Growing a Language, Revisited"),
		l(11, "Guy K. Stern, Jr. <gstern@example.org>, Ada Whitlow <ada@example.org>"),
		l(11, "Abstract"),
	}, title: "Growing a Language, Revisited", authors: []string{"Guy K. Stern", "Ada Whitlow"}, year: 0, created: 2009},

	{style: "Journal of Statistical Software article: masthead with month, volume and issue", lines: []pdf.Line{
		l(20, "JSS"), l(12, "Journal of Statistical Software"),
		l(10, "May 2011, Volume 40, Issue 8."), l(10, "http://www.jstatsoft.org/"),
		l(17, "The Split-Apply-Combine Strategy for Data Analysis"),
		l(12, "Harriet Walsh"), l(10, "Rice University"),
		l(12, "Abstract"),
		l(10, "Many data analysis problems involve the application of a split-apply-combine strategy."),
		l(10, "Keywords: R, apply, split, data analysis."),
	}, title: "The Split-Apply-Combine Strategy for Data Analysis", authors: []string{"Harriet Walsh"}, year: 2011, created: 2013},

	{style: "R vignette built in 2021 of a JSS paper of 2010: a citation line, the build date under the names", lines: []pdf.Line{
		l(17, "tseries2: Robust Filtering of Irregular Time Series in R"),
		l(12, "Karl Brenner"), l(10, "Universität Innsbruck"),
		l(12, "Pietro Rinaldi"), l(10, "Università di Bologna"),
		l(10, "Compiled on March 4, 2021"),
		l(12, "Abstract"),
		l(10, "This vignette presents package tseries2 for robust filtering. It is a version of Brenner and Rinaldi (2010) as published in the Journal of Statistical Software, 36(4), 1–22."),
		l(10, "Keywords: time series, robust filtering, R."),
	}, title: "tseries2: Robust Filtering of Irregular Time Series in R", authors: []string{"Karl Brenner", "Pietro Rinaldi"}, year: 2010, created: 2021},

	{style: "R vignette whose only date is the package version's", lines: []pdf.Line{
		l(17, "Getting Started with the quantcurve Package"),
		l(12, "Olivia Bergström"),
		l(10, "quantcurve version 2.3-1 as of 2022-11-08"),
		l(12, "Abstract"),
		l(10, "The quantcurve package fits quantile curves as introduced by Koenker (1978) and extended by Bergström (2012)."),
	}, title: "Getting Started with the quantcurve Package", authors: []string{"Olivia Bergström"}, year: 2012, created: 2022},

	{style: "JSS-style paper typeset by the user: the citation's volume", lines: []pdf.Line{
		l(17, "Bayesian Model Averaging for Linear Regression"),
		l(12, "Tomasz Nowak"), l(10, "Warsaw University of Technology"),
		l(12, "Abstract"),
		l(10, "We describe the package bmalin for Bayesian model averaging, as published in JSS Vol. 48, Issue 3 (2012)."),
		l(8, "Last updated: 2023-01-15"),
	}, title: "Bayesian Model Averaging for Linear Regression", authors: []string{"Tomasz Nowak"}, year: 2012, created: 2023},

	{style: "scanned 1987 technical report with a download stamp of 2010", lines: []pdf.Line{
		l(9, "Downloaded from the ACM Digital Library on March 12, 2010"),
		l(14, "A Lattice Model of Secure Information Flow in Networks"),
		l(11, "Richard T. Haldane"),
		l(11, "Technical Report CSL-TR-87-331"),
		l(11, "Computer Systems Laboratory, Stanford University"),
		l(11, "June 1987"),
		l(11, "Abstract"),
		l(10, "We extend the lattice model of information flow to networks of hosts."),
	}, title: "A Lattice Model of Secure Information Flow in Networks", authors: []string{"Richard T. Haldane"}, year: 1987, created: 2010},

	{style: "R vignette: the build date under the name, the paper's year only in what it cites", lines: []pdf.Line{
		l(17, "Sparse Inverse Covariance Estimation with the glassoX Package"),
		l(12, "Jerome Fairbanks"), l(10, "Stanford University"),
		l(10, "Compiled on March 4, 2021"),
		l(12, "Abstract"),
		l(10, "We describe glassoX, which fits the graphical lasso of Fairbanks, Hastings, and Tibbs (2008) and the neighbourhood selection of Meinshausen and Bühlmann (2006)."),
	}, title: "Sparse Inverse Covariance Estimation with the glassoX Package", authors: []string{"Jerome Fairbanks"}, year: 2008, created: 2021},

	{style: "R vignette of a JSS paper: last-updated line, the paper's citation in the footer", lines: []pdf.Line{
		l(17, "Flexible Smoothing of Hazard Curves"),
		l(12, "Katrin Brandt"), l(10, "University of Oslo"),
		l(12, "Torvald Olsen"), l(10, "Norwegian Computing Center"),
		l(10, "Last updated: March 3, 2023"),
		l(12, "Abstract"),
		l(10, "Hazard curves are smoothed with penalised splines."),
		l(8, "Citation: Brandt K, Olsen T (2014). “Flexible Smoothing of Hazard Curves.” Journal of Statistical Software, 57(3), 1–25. doi:10.18637/jss.v057.i03."),
	}, title: "Flexible Smoothing of Hazard Curves", authors: []string{"Katrin Brandt", "Torvald Olsen"}, year: 2014, created: 2023},

	{style: "R vignette: package version and date line under the title", lines: []pdf.Line{
		l(17, "Robust Covariance Matrices for Panel Data"),
		l(12, "Ingo Petersen"),
		l(10, "R package version 3.1-4, 2022-06-30"),
		l(12, "Abstract"),
		l(10, "This is a version of Petersen (2009), published in Computational Statistics & Data Analysis."),
	}, title: "Robust Covariance Matrices for Panel Data", authors: []string{"Ingo Petersen"}, year: 2009, created: 2022},

	{style: "1987 report scanned in 2010: the scan's stamp in the header before the report's date", lines: []pdf.Line{
		l(14, "Garbage Collection in an Uncooperative Environment Revisited"),
		l(11, "Marion K. Yates"),
		l(11, "Department of Computer Science, Rice University"),
		l(11, "This document was digitized on January 5, 2010"),
		l(11, "December 1987"),
		l(11, "Abstract"),
		l(10, "A conservative collector needs no help from the compiler."),
	}, title: "Garbage Collection in an Uncooperative Environment Revisited", authors: []string{"Marion K. Yates"}, year: 1987, created: 2010},

	{style: "1987 proceedings paper scanned in 2010, no title found: only stamps and the venue", lines: []pdf.Line{
		l(10, "Retrieved from the archive on 12 March 2010"),
		l(10, "Proceedings of the Eleventh ACM Symposium on Operating Systems Principles, 1987"),
		l(10, "The design of a distributed file cache is described. It keeps copies consistent with leases."),
	}, title: "", year: 1987, created: 2010},

	{style: "thesis title page: all-caps title, \"by\" line, degree and date", lines: []pdf.Line{
		l(14, "LEARNING TO RANK FROM IMPLICIT FEEDBACK"),
		l(12, "A Dissertation"),
		l(12, "Presented to the Faculty of the Graduate School"),
		l(12, "of Cornell University"),
		l(12, "in Partial Fulfillment of the Requirements for the Degree of"),
		l(12, "Doctor of Philosophy"),
		l(12, "by"),
		l(12, "Thorsten Q. Lindgren"),
		l(12, "August 2003"),
	}, title: "Learning to Rank from Implicit Feedback", authors: []string{"Thorsten Q. Lindgren"}, year: 2003, created: 2005},

	{style: "thesis: \"by X\" on one line", lines: []pdf.Line{
		l(16, "Scheduling Sparse Tensor Kernels on Spatial Accelerators"),
		l(12, "by Amara N. Okafor"),
		l(11, "Submitted to the Department of Electrical Engineering and Computer Science in partial fulfillment of the requirements for the degree of Doctor of Philosophy at the Massachusetts Institute of Technology"),
		l(11, "September 2018"),
		l(11, "© Massachusetts Institute of Technology 2018. All rights reserved."),
	}, title: "Scheduling Sparse Tensor Kernels on Spatial Accelerators", authors: []string{"Amara N. Okafor"}, year: 2018, created: 2020},

	{style: "ACL Anthology: symbol marks between names, the association in the footer", lines: []pdf.Line{
		l(15, "Cross-Lingual Transfer for Low-Resource Dependency Parsing"),
		l(12, "Ingrid Halvorsen♠ Mateo Ruiz♣ Yuki Tanaka♠"),
		l(11, "♠University of Edinburgh ♣University of the Basque Country"),
		l(10, "{i.halvorsen,y.tanaka}@ed.ac.uk mateo.ruiz@ehu.eus"),
		l(12, "Abstract"),
		l(10, "We transfer parsers across languages with few treebanks."),
		l(9, "Proceedings of the 58th Annual Meeting of the Association for Computational Linguistics, pages 1234–1245"),
		l(9, "July 5 - 10, 2020. ©2020 Association for Computational Linguistics"),
	}, title: "Cross-Lingual Transfer for Low-Resource Dependency Parsing", authors: []string{"Ingrid Halvorsen", "Mateo Ruiz", "Yuki Tanaka"}, year: 2020, created: 2022},

	{style: "Elsevier journal: affiliation letters run into names, article info", lines: []pdf.Line{
		l(8, "Journal of Parallel and Distributed Computing 131 (2019) 112–124"),
		l(8, "Contents lists available at ScienceDirect"),
		l(8, "journal homepage: www.elsevier.com/locate/jpdc"),
		l(16, "Work stealing with private deques on NUMA machines"),
		l(11, "Sanna Virtanena,∗, Olli Korhonenb"),
		l(8, "a Department of Computer Science, Aalto University, Espoo, Finland"),
		l(8, "b Nokia Bell Labs, Espoo, Finland"),
		l(9, "a r t i c l e i n f o"),
		l(8, "Article history: Received 3 March 2018 Received in revised form 2 January 2019 Accepted 9 April 2019"),
	}, title: "Work stealing with private deques on NUMA machines", authors: []string{"Sanna Virtanen", "Olli Korhonen"}, year: 2019, created: 2021},

	{style: "old journal scan (text from OCR): masthead, names in capitals, received line", lines: []pdf.Line{
		l(8.5, "Reprinted from INFORMATION AND CONTROL Vol. 12, No. 3, March 1968"),
		l(8.5, "All Rights Reserved by Academic Press, New York and London"),
		l(12.5, "On the Complexity of Regular Expression Equivalence"),
		l(9, "WALTER K. BRANDT"),
		l(7.5, "Department of Mathematics, University of Michigan, Ann Arbor"),
		l(7.5, "Received June 13, 1966"),
	}, title: "On the Complexity of Regular Expression Equivalence", authors: []string{"Walter K. Brandt"}, year: 1968, created: 2004},

	{style: "workshop paper: emails line under the names, keyword line with no abstract heading", lines: []pdf.Line{
		l(16, "Towards Verified Smart Contract Upgrades"),
		l(11, "Noor Al-Hashimi, Daniel Fischer"),
		l(10, "noor@ethz.ch, dfischer@ethz.ch"),
		l(10, "Additional Key Words and Phrases: smart contracts, verification, upgrades"),
		l(10, "Smart contracts are immutable, but their proxies are not."),
	}, title: "Towards Verified Smart Contract Upgrades", authors: []string{"Noor Al-Hashimi", "Daniel Fischer"}, year: 0, created: 2022},

	{style: "a consortium's white paper: no person to cite", lines: []pdf.Line{
		l(18, "Interoperability Profile for Federated Health Records"),
		l(12, "Open Health Data Consortium"),
		l(11, "Technical Committee on Exchange Formats"),
		l(11, "Version 1.2, 15 January 2021"),
	}, title: "Interoperability Profile for Federated Health Records", authors: nil, year: 2021, created: 2023},

	{style: "Italian address under the name", lines: []pdf.Line{
		l(15, "Fault Tolerant Scheduling in Avionics Networks"),
		l(11, "Giulia Marchetti"),
		l(10, "Dipartimento di Informatica"),
		l(10, "Piazza di Porta S. Donato 5, Bologna"),
		l(11, "Abstract"),
	}, title: "Fault Tolerant Scheduling in Avionics Networks", authors: []string{"Giulia Marchetti"}, year: 0, created: 2014},

	{style: "subtitle in smaller type after a colon, footnote digit on the title", lines: []pdf.Line{
		l(17, "Lazy Snapshots:"),
		l(13, "Consistent Backups of Live Key-Value Stores1"),
		l(11, "Ravi Subramanian"),
		l(10, "Indian Institute of Science, Bangalore"),
		l(8, "1 An earlier version appeared at the Workshop on Hot Topics in Storage, 2016."),
		l(8, "Proceedings of the VLDB Endowment, Vol. 11, No. 2, 2017"),
	}, title: "Lazy Snapshots: Consistent Backups of Live Key-Value Stores", authors: []string{"Ravi Subramanian"}, year: 2017, created: 2019},

	{style: "mojibake names from a broken encoding", lines: []pdf.Line{
		l(15, "Streaming Graph Partitioning at Scale"),
		l(11, "RenÃ© LefÃ¨vre, JÃ¼rgen MÃ¼ller"),
		l(10, "Abstract"),
	}, title: "Streaming Graph Partitioning at Scale", authors: nil, year: 0, created: 2016},

	{style: "a plain document: the title in body type, the name under it", lines: []pdf.Line{
		l(10, "A Note on Two Problems in Connexion with Graphs"),
		l(10, "Edsger Lindqvist"),
		l(10, "Mathematisch Centrum, Amsterdam"),
		l(10, "We consider n points (nodes), some or all pairs of which are connected by a branch; the length of each branch is given."),
	}, title: "A Note on Two Problems in Connexion with Graphs", authors: []string{"Edsger Lindqvist"}, year: 0, created: 2001},
}

// TestFrontPages reads the front pages written for this test and scores
// them as the corpus tests score the corpus; every one must come out
// right: the rules are general, not fitted to the corpus.
func TestFrontPages(t *testing.T) {
	titles, authors, years := 0, 0, 0
	for _, fp := range frontPages {
		var text []string
		for _, ln := range fp.lines {
			text = append(text, ln.Text)
		}
		doc := &pdf.Document{Pages: []pdf.Page{{Number: 1, Text: strings.Join(text, "\n")}}, FirstPageLines: fp.lines}
		doc.Info.CreationYear = fp.created
		d := Derive("papers/x", File{}, FromDocument(doc), 0)
		if d.Title == fp.title || fp.title == "" {
			titles++
		} else {
			t.Errorf("%s: title %q, want %q", fp.style, d.Title, fp.title)
		}
		if len(d.Authors) >= len(fp.authors) && (len(fp.authors) > 0 || len(d.Authors) == 0) && equalPrefix(d.Authors, fp.authors) {
			authors++
		} else {
			t.Errorf("%s: authors %q, want %q", fp.style, d.Authors, fp.authors)
		}
		if d.Year == fp.year || fp.year == 0 && d.Year == fp.created {
			years++
		} else {
			t.Errorf("%s: year %d, want %d", fp.style, d.Year, fp.year)
		}
	}
	t.Logf("front pages: titles %d, authors %d, years %d of %d", titles, authors, years, len(frontPages))
}

func equalPrefix(got, want []string) bool {
	for i, w := range want {
		if got[i] != w {
			return false
		}
	}
	return true
}

// TestByLine: a "by" line gives the names after it; a word that begins
// with "by" is no such line.
func TestByLine(t *testing.T) {
	for text, want := range map[string]string{"by": "", "by Amara N. Okafor": "Amara N. Okafor", "Author(s): Howard B. Lindqvist": "Howard B. Lindqvist", "Authors: A. B. Cole": "A. B. Cole"} {
		if m := byLine.FindStringSubmatch(text); m == nil || m[1] != want {
			t.Errorf("%q: %q, want %q", text, m, want)
		}
	}
	for _, text := range []string{"Byzantine Chain Replication", "Byron Lee", "Authority and Trust"} {
		if byLine.MatchString(text) {
			t.Errorf("%q read as a by line", text)
		}
	}
}
