// Registers agentero_rank (rank.c) for every SQLite connection opened after.
int agenteroRegisterRank(void);
