package outline

import (
	"os"
	"testing"

	"github.com/agentero/agentero/backend/pdf"
)

func TestMain(m *testing.M) {
	pdf.ServeWorkerIfRequested()
	os.Exit(m.Run())
}
