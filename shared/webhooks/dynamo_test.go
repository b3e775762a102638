package webhooks_test

import (
	"testing"

	"github.com/brandlens/brandlens/shared/store/dynamo"
	"github.com/brandlens/brandlens/shared/store/dynamotest"
)

// The claim protocol's conditional writes, on DynamoDB Local: the same
// storms of duplicate messages POST exactly once per attempt.
func TestDuplicateMessagesPostOnceDynamoDB(t *testing.T) {
	client := dynamotest.Start(t)
	testClaimProtocol(t, dynamo.New(client, dynamotest.NewTable(t, client)))
}
