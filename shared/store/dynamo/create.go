package dynamo

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/brandlens/brandlens/shared/store"
)

// CreateTable creates the single table as template.yaml declares it (PK/SK,
// GSI1 on GSI1PK/GSI1SK projecting all attributes, on-demand billing),
// waits until it is active and turns on TTL on expiresAt. A table that
// already exists is left as it is, with TTL turned on if it was off.
func CreateTable(ctx context.Context, client *dynamodb.Client, name string) error {
	str := func(attr string) types.AttributeDefinition {
		return types.AttributeDefinition{AttributeName: aws.String(attr), AttributeType: types.ScalarAttributeTypeS}
	}
	key := func(hash, rng string) []types.KeySchemaElement {
		return []types.KeySchemaElement{
			{AttributeName: aws.String(hash), KeyType: types.KeyTypeHash},
			{AttributeName: aws.String(rng), KeyType: types.KeyTypeRange},
		}
	}
	_, err := client.CreateTable(ctx, &dynamodb.CreateTableInput{
		TableName:            &name,
		BillingMode:          types.BillingModePayPerRequest,
		AttributeDefinitions: []types.AttributeDefinition{str(store.AttrPK), str(store.AttrSK), str(store.AttrGSI1PK), str(store.AttrGSI1SK)},
		KeySchema:            key(store.AttrPK, store.AttrSK),
		GlobalSecondaryIndexes: []types.GlobalSecondaryIndex{{
			IndexName:  aws.String(store.IndexGSI1),
			KeySchema:  key(store.AttrGSI1PK, store.AttrGSI1SK),
			Projection: &types.Projection{ProjectionType: types.ProjectionTypeAll},
		}},
	})
	var inUse *types.ResourceInUseException
	if err != nil && !errors.As(err, &inUse) {
		return fmt.Errorf("store: create table %s: %w", name, err)
	}
	if err := waitActive(ctx, client, name); err != nil {
		return err
	}
	ttl, err := client.DescribeTimeToLive(ctx, &dynamodb.DescribeTimeToLiveInput{TableName: &name})
	if err != nil {
		return fmt.Errorf("store: describe TTL of %s: %w", name, err)
	}
	if d := ttl.TimeToLiveDescription; d != nil && aws.ToString(d.AttributeName) == store.AttrExpiresAt &&
		(d.TimeToLiveStatus == types.TimeToLiveStatusEnabled || d.TimeToLiveStatus == types.TimeToLiveStatusEnabling) {
		return nil
	}
	_, err = client.UpdateTimeToLive(ctx, &dynamodb.UpdateTimeToLiveInput{
		TableName: &name,
		TimeToLiveSpecification: &types.TimeToLiveSpecification{
			AttributeName: aws.String(store.AttrExpiresAt), Enabled: aws.Bool(true),
		},
	})
	if err != nil {
		return fmt.Errorf("store: enable TTL on %s: %w", name, err)
	}
	return nil
}

// waitActive polls quickly at first (DynamoDB Local is ready at once), then
// backs off to the pace of the real service.
func waitActive(ctx context.Context, client *dynamodb.Client, name string) error {
	pause := 20 * time.Millisecond
	for {
		out, err := client.DescribeTable(ctx, &dynamodb.DescribeTableInput{TableName: &name})
		if err != nil {
			var nf *types.ResourceNotFoundException
			if !errors.As(err, &nf) {
				return fmt.Errorf("store: describe table %s: %w", name, err)
			}
		} else if active(out.Table) {
			return nil
		}
		select {
		case <-ctx.Done():
			return fmt.Errorf("store: wait for table %s: %w", name, ctx.Err())
		case <-time.After(pause):
		}
		pause = min(2*pause, 5*time.Second)
	}
}

func active(t *types.TableDescription) bool {
	if t == nil || t.TableStatus != types.TableStatusActive {
		return false
	}
	for _, g := range t.GlobalSecondaryIndexes {
		if g.IndexStatus != types.IndexStatusActive {
			return false
		}
	}
	return true
}
