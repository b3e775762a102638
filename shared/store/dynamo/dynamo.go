// Package dynamo is the DynamoDB backend of the single table
// (aws-sdk-go-v2). It gives store.Table exactly the meaning of the embedded
// backend, which includes deciding TTL expiry in code: DynamoDB deletes
// expired items only lazily.
package dynamo

import (
	"context"
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"strconv"
	"strings"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/aws/retry"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/brandlens/brandlens/shared/store"
)

var _ store.Table = (*Table)(nil)

// maxAttempts bounds the retries of a write that raced another writer.
const maxAttempts = 12

// Option configures a Table.
type Option func(*Table)

// WithClock sets the clock that decides TTL expiry (default time.Now).
func WithClock(now func() time.Time) Option { return func(t *Table) { t.now = now } }

// Table is one DynamoDB table seen through store.Table.
type Table struct {
	client *dynamodb.Client
	name   string
	now    func() time.Time
}

// New returns the table name reached through client.
func New(client *dynamodb.Client, table string, opts ...Option) *Table {
	t := &Table{client: client, name: table, now: time.Now}
	for _, o := range opts {
		o(t)
	}
	if t.now == nil {
		t.now = time.Now
	}
	return t
}

// retryConflicts makes the SDK retry a single-item write that met a running
// transaction on the item; the write was not applied, so it is safe.
func retryConflicts(o *dynamodb.Options) {
	o.Retryer = retry.AddWithErrorCodes(o.Retryer, (&types.TransactionConflictException{}).ErrorCode())
}

func attrValue(v any) (types.AttributeValue, error) {
	switch x := store.Normalize(v).(type) {
	case string:
		return &types.AttributeValueMemberS{Value: x}, nil
	case int64:
		return number(x), nil
	case bool:
		return &types.AttributeValueMemberBOOL{Value: x}, nil
	}
	return nil, fmt.Errorf("unsupported value type %T", v)
}

func marshalItem(it store.Item) (map[string]types.AttributeValue, error) {
	out := make(map[string]types.AttributeValue, len(it))
	for k, v := range it {
		av, err := attrValue(v)
		if err != nil {
			return nil, fmt.Errorf("store: attribute %s: %w", k, err)
		}
		out[k] = av
	}
	return out, nil
}

func marshalKey(k store.Key) map[string]types.AttributeValue {
	return map[string]types.AttributeValue{
		store.AttrPK: &types.AttributeValueMemberS{Value: k.PK},
		store.AttrSK: &types.AttributeValueMemberS{Value: k.SK},
	}
}

// unmarshalItem returns nil for nil.
func unmarshalItem(m map[string]types.AttributeValue) (store.Item, error) {
	if m == nil {
		return nil, nil
	}
	it := make(store.Item, len(m))
	for k, av := range m {
		switch x := av.(type) {
		case *types.AttributeValueMemberS:
			it[k] = x.Value
		case *types.AttributeValueMemberN:
			n, err := strconv.ParseInt(x.Value, 10, 64)
			if err != nil {
				return nil, fmt.Errorf("store: attribute %s: number %s is not an int64", k, x.Value)
			}
			it[k] = n
		case *types.AttributeValueMemberBOOL:
			it[k] = x.Value
		default:
			return nil, fmt.Errorf("store: attribute %s has unsupported type %T", k, av)
		}
	}
	return it, nil
}

func isCondFailed(err error) (*types.ConditionalCheckFailedException, bool) {
	var ccf *types.ConditionalCheckFailedException
	ok := errors.As(err, &ccf)
	return ccf, ok
}

// Get implements store.Table.
func (t *Table) Get(ctx context.Context, key store.Key) (store.Item, error) {
	if err := key.Validate(); err != nil {
		return nil, err
	}
	it, err := t.getRaw(ctx, key)
	if err != nil {
		return nil, err
	}
	if it == nil || it.Expired(t.now()) {
		return nil, store.ErrNotFound
	}
	return it, nil
}

// getRaw reads the stored item, expired or not; nil when there is none.
func (t *Table) getRaw(ctx context.Context, key store.Key) (store.Item, error) {
	out, err := t.client.GetItem(ctx, &dynamodb.GetItemInput{
		TableName: &t.name, Key: marshalKey(key), ConsistentRead: aws.Bool(true),
	})
	if err != nil {
		return nil, fmt.Errorf("store: get %s/%s: %w", key.PK, key.SK, err)
	}
	return unmarshalItem(out.Item)
}

// condExpr renders a write condition; "" when it always holds.
func condExpr(b *builder, n node) *string {
	if n.kind == nTrue {
		return nil
	}
	return aws.String(n.render(b))
}

// Put implements store.Table.
func (t *Table) Put(ctx context.Context, item store.Item, cond store.Cond) error {
	it, err := store.NormalizeItem(item)
	if err != nil {
		return err
	}
	in, err := t.putInput(it, cond, t.now())
	if err != nil {
		return err
	}
	_, err = t.client.PutItem(ctx, in, retryConflicts)
	if _, ok := isCondFailed(err); ok {
		return store.ErrConditionFailed
	}
	if err != nil {
		return fmt.Errorf("store: put %s/%s: %w", it.String(store.AttrPK), it.String(store.AttrSK), err)
	}
	return nil
}

func (t *Table) putInput(it store.Item, cond store.Cond, now time.Time) (*dynamodb.PutItemInput, error) {
	av, err := marshalItem(it)
	if err != nil {
		return nil, err
	}
	n, err := writeCond(cond, now)
	if err != nil {
		return nil, err
	}
	b := newBuilder()
	in := &dynamodb.PutItemInput{TableName: &t.name, Item: av, ConditionExpression: condExpr(b, n)}
	in.ExpressionAttributeNames, in.ExpressionAttributeValues = b.attrNames(), b.attrValues()
	return in, nil
}

// Delete implements store.Table.
func (t *Table) Delete(ctx context.Context, key store.Key, cond store.Cond) error {
	if err := key.Validate(); err != nil {
		return err
	}
	n, err := writeCond(cond, t.now())
	if err != nil {
		return err
	}
	b := newBuilder()
	in := &dynamodb.DeleteItemInput{TableName: &t.name, Key: marshalKey(key), ConditionExpression: condExpr(b, n)}
	in.ExpressionAttributeNames, in.ExpressionAttributeValues = b.attrNames(), b.attrValues()
	_, err = t.client.DeleteItem(ctx, in, retryConflicts)
	if _, ok := isCondFailed(err); ok {
		return store.ErrConditionFailed
	}
	if err != nil {
		return fmt.Errorf("store: delete %s/%s: %w", key.PK, key.SK, err)
	}
	return nil
}

// An UpdateItem on an expired item that DynamoDB has not deleted yet would
// keep its old attributes, yet for store.Table that item is gone. So an
// update also requires the item not to be expired; when that is what
// failed, the new item is put afresh under the condition that the old one
// is still absent or expired.
type verdict int

const (
	vFailed verdict = iota // the condition does not hold
	vFresh                 // the item is expired and the condition holds for no item
	vRetry                 // the item changed under us
)

// classify explains a failed update condition from the item as it was
// (returned by DynamoDB with the failure; nil if absent).
func (t *Table) classify(ctx context.Context, key store.Key, cond store.Cond, old store.Item, now time.Time) (verdict, error) {
	if old == nil && cond.Eval(nil, now) {
		// Absent items pass the condition, so DynamoDB returned no item
		// with the failure: look.
		var err error
		if old, err = t.getRaw(ctx, key); err != nil {
			return vFailed, err
		}
	}
	switch {
	case old == nil:
		if cond.Eval(nil, now) {
			return vRetry, nil
		}
	case old.Expired(now):
		if cond.Eval(nil, now) {
			return vFresh, nil
		}
	default:
		if cond.Eval(old, now) {
			return vRetry, nil
		}
	}
	return vFailed, nil
}

func (t *Table) updateInput(key store.Key, u store.Update, cond store.Cond, now time.Time) (*types.Update, error) {
	n, err := writeCond(cond, now)
	if err != nil {
		return nil, err
	}
	b := newBuilder()
	expr, err := updateExpr(b, u)
	if err != nil {
		return nil, err
	}
	return &types.Update{
		TableName:                           &t.name,
		Key:                                 marshalKey(key),
		UpdateExpression:                    &expr,
		ConditionExpression:                 aws.String(and(n, notExpired(now.Unix())).render(b)),
		ExpressionAttributeNames:            b.attrNames(),
		ExpressionAttributeValues:           b.attrValues(),
		ReturnValuesOnConditionCheckFailure: types.ReturnValuesOnConditionCheckFailureAllOld,
	}, nil
}

// Update implements store.Table.
func (t *Table) Update(ctx context.Context, key store.Key, upd store.Update, cond store.Cond) (store.Item, error) {
	if err := key.Validate(); err != nil {
		return nil, err
	}
	u, err := upd.Normalize()
	if err != nil {
		return nil, err
	}
	for range maxAttempts {
		now := t.now()
		up, err := t.updateInput(key, u, cond, now)
		if err != nil {
			return nil, err
		}
		out, err := t.client.UpdateItem(ctx, &dynamodb.UpdateItemInput{
			TableName: up.TableName, Key: up.Key, UpdateExpression: up.UpdateExpression,
			ConditionExpression: up.ConditionExpression, ExpressionAttributeNames: up.ExpressionAttributeNames,
			ExpressionAttributeValues: up.ExpressionAttributeValues, ReturnValues: types.ReturnValueAllNew,
			ReturnValuesOnConditionCheckFailure: types.ReturnValuesOnConditionCheckFailureAllOld,
		}, retryConflicts)
		if err == nil {
			return unmarshalItem(out.Attributes)
		}
		ccf, ok := isCondFailed(err)
		if !ok {
			return nil, fmt.Errorf("store: update %s/%s: %w", key.PK, key.SK, err)
		}
		old, err := unmarshalItem(ccf.Item)
		if err != nil {
			return nil, err
		}
		v, err := t.classify(ctx, key, cond, old, now)
		if err != nil {
			return nil, err
		}
		switch v {
		case vFailed:
			return nil, store.ErrConditionFailed
		case vFresh:
			it, err := u.ApplyChecked(key, nil)
			if err != nil {
				return nil, err
			}
			in, err := t.putInput(it, store.NotExists(), now)
			if err != nil {
				return nil, err
			}
			_, err = t.client.PutItem(ctx, in, retryConflicts)
			if err == nil {
				return it, nil
			}
			if _, ok := isCondFailed(err); !ok {
				return nil, fmt.Errorf("store: update %s/%s: %w", key.PK, key.SK, err)
			}
		}
	}
	return nil, fmt.Errorf("store: update %s/%s: the item kept changing during %d attempts", key.PK, key.SK, maxAttempts)
}

// txItem renders one op; a fresh update becomes a put of the new item.
func (t *Table) txItem(op store.Op, fresh bool, now time.Time) (types.TransactWriteItem, error) {
	switch {
	case op.Kind == store.OpUpdate && fresh:
		it, err := op.Update.ApplyChecked(op.Key, nil)
		if err != nil {
			return types.TransactWriteItem{}, err
		}
		op = store.PutOp(it, store.NotExists())
	case op.Kind == store.OpUpdate:
		up, err := t.updateInput(op.Key, op.Update, op.Cond, now)
		return types.TransactWriteItem{Update: up}, err
	}
	if op.Kind == store.OpPut {
		in, err := t.putInput(op.Item, op.Cond, now)
		if err != nil {
			return types.TransactWriteItem{}, err
		}
		return types.TransactWriteItem{Put: &types.Put{
			TableName: in.TableName, Item: in.Item, ConditionExpression: in.ConditionExpression,
			ExpressionAttributeNames: in.ExpressionAttributeNames, ExpressionAttributeValues: in.ExpressionAttributeValues,
		}}, nil
	}
	n, err := writeCond(op.Cond, now)
	if err != nil {
		return types.TransactWriteItem{}, err
	}
	b := newBuilder()
	if op.Kind == store.OpDelete {
		d := &types.Delete{TableName: &t.name, Key: marshalKey(op.Key), ConditionExpression: condExpr(b, n)}
		d.ExpressionAttributeNames, d.ExpressionAttributeValues = b.attrNames(), b.attrValues()
		return types.TransactWriteItem{Delete: d}, nil
	}
	c := &types.ConditionCheck{TableName: &t.name, Key: marshalKey(op.Key), ConditionExpression: aws.String(n.render(b))}
	c.ExpressionAttributeNames, c.ExpressionAttributeValues = b.attrNames(), b.attrValues()
	return types.TransactWriteItem{ConditionCheck: c}, nil
}

// TransactWrite implements store.Table.
func (t *Table) TransactWrite(ctx context.Context, ops ...store.Op) error {
	ops, err := store.PrepareTransaction(ops)
	if err != nil || len(ops) == 0 {
		return err
	}
	fresh := make([]bool, len(ops))
	for attempt := range maxAttempts {
		now := t.now()
		items := make([]types.TransactWriteItem, len(ops))
		for i, op := range ops {
			if items[i], err = t.txItem(op, fresh[i], now); err != nil {
				return fmt.Errorf("store: transaction op %d: %w", i, err)
			}
		}
		_, err := t.client.TransactWriteItems(ctx, &dynamodb.TransactWriteItemsInput{TransactItems: items})
		if err == nil {
			return nil
		}
		var tce *types.TransactionCanceledException
		if !errors.As(err, &tce) {
			return fmt.Errorf("store: transaction: %w", err)
		}
		failed, conflict := -1, false
		for i, r := range tce.CancellationReasons {
			switch aws.ToString(r.Code) {
			case "ConditionalCheckFailed":
				if failed < 0 {
					failed = i
				}
			case "TransactionConflict":
				conflict = true
			}
		}
		switch {
		case failed >= 0 && failed < len(ops):
			op := ops[failed]
			if op.Kind != store.OpUpdate {
				return &store.TxConditionError{Index: failed}
			}
			if fresh[failed] {
				fresh[failed] = false // the expired item was replaced meanwhile
				continue
			}
			old, err := unmarshalItem(tce.CancellationReasons[failed].Item)
			if err != nil {
				return err
			}
			v, err := t.classify(ctx, op.Key, op.Cond, old, now)
			if err != nil {
				return err
			}
			switch v {
			case vFailed:
				return &store.TxConditionError{Index: failed}
			case vFresh:
				fresh[failed] = true
			}
		case conflict:
			// Another transaction held an item: nothing was applied, so run
			// it again after a jittered pause.
			pause := time.Duration(rand.Int64N(int64(10*time.Millisecond) << min(attempt, 5)))
			select {
			case <-ctx.Done():
				return ctx.Err()
			case <-time.After(pause):
			}
		default:
			return fmt.Errorf("store: transaction: %w", err)
		}
	}
	return fmt.Errorf("store: transaction kept conflicting during %d attempts", maxAttempts)
}

// encodeCursor renders DynamoDB's LastEvaluatedKey (all string keys).
func encodeCursor(lek map[string]types.AttributeValue) (string, error) {
	m := make(map[string]string, len(lek))
	for k, av := range lek {
		s, ok := av.(*types.AttributeValueMemberS)
		if !ok {
			return "", fmt.Errorf("store: last evaluated key %s is not a string", k)
		}
		m[k] = s.Value
	}
	return store.EncodeCursor(m), nil
}

func decodeCursor(s, index, hash string) (map[string]types.AttributeValue, error) {
	m, err := store.DecodeCursor(s, index, hash)
	if err != nil {
		return nil, err
	}
	out := make(map[string]types.AttributeValue, len(m))
	for k, v := range m {
		out[k] = &types.AttributeValueMemberS{Value: v}
	}
	return out, nil
}

// Query implements store.Table.
func (t *Table) Query(ctx context.Context, q store.Query) (store.Page, error) {
	if err := q.Validate(); err != nil {
		return store.Page{}, err
	}
	hashAttr, rangeAttr := store.IndexKeyAttrs(q.Index)
	filter, err := translate(q.Filter)
	if err != nil {
		return store.Page{}, err
	}
	var start map[string]types.AttributeValue
	if q.Cursor != "" {
		if start, err = decodeCursor(q.Cursor, q.Index, q.PK); err != nil {
			return store.Page{}, err
		}
	}
	b := newBuilder()
	kc, ok := keyCond(b, hashAttr, rangeAttr, q.PK, q.SK)
	if !ok {
		return store.Page{}, nil
	}
	in := &dynamodb.QueryInput{
		TableName:              &t.name,
		KeyConditionExpression: &kc,
		FilterExpression:       aws.String(and(notExpired(t.now().Unix()), filter).render(b)),
		ScanIndexForward:       aws.Bool(!q.Desc),
		ExclusiveStartKey:      start,
	}
	if q.Index != "" {
		in.IndexName = aws.String(q.Index)
	} else {
		in.ConsistentRead = aws.Bool(true)
	}
	if q.Limit > 0 {
		in.Limit = aws.Int32(int32(min(q.Limit, math.MaxInt32)))
	}
	if len(q.Attrs) > 0 {
		names := make([]string, len(q.Attrs))
		for i, a := range q.Attrs {
			names[i] = b.name(a)
		}
		in.ProjectionExpression = aws.String(strings.Join(names, ", "))
	}
	in.ExpressionAttributeNames, in.ExpressionAttributeValues = b.attrNames(), b.attrValues()
	out, err := t.client.Query(ctx, in)
	if err != nil {
		return store.Page{}, fmt.Errorf("store: query %s: %w", q.PK, err)
	}
	page := store.Page{Items: make([]store.Item, 0, len(out.Items))}
	for _, av := range out.Items {
		it, err := unmarshalItem(av)
		if err != nil {
			return store.Page{}, err
		}
		page.Items = append(page.Items, it)
	}
	if len(out.LastEvaluatedKey) > 0 {
		if page.Cursor, err = encodeCursor(out.LastEvaluatedKey); err != nil {
			return store.Page{}, err
		}
	}
	return page, nil
}

// GetMany implements store.BatchGetter with BatchGetItem (consistent
// reads), at most store.MaxBatchGet keys a request, asking again for the
// keys DynamoDB leaves unprocessed.
func (t *Table) GetMany(ctx context.Context, keys []store.Key) ([]store.Item, error) {
	byKey := make(map[store.Key]store.Item, len(keys))
	var unique []store.Key
	for _, k := range keys {
		if _, seen := byKey[k]; !seen {
			byKey[k] = nil
			unique = append(unique, k)
		}
	}
	for len(unique) > 0 {
		n := min(len(unique), store.MaxBatchGet)
		req := make([]map[string]types.AttributeValue, n)
		for i, k := range unique[:n] {
			req[i] = marshalKey(k)
		}
		unique = unique[n:]
		pending := map[string]types.KeysAndAttributes{t.name: {Keys: req, ConsistentRead: aws.Bool(true)}}
		for attempt := 0; len(pending) > 0; attempt++ {
			if attempt > 0 {
				// Unprocessed keys: DynamoDB was throttling; back off.
				pause := time.Duration(rand.Int64N(int64(10*time.Millisecond) << min(attempt, 6)))
				select {
				case <-ctx.Done():
					return nil, ctx.Err()
				case <-time.After(pause):
				}
			}
			out, err := t.client.BatchGetItem(ctx, &dynamodb.BatchGetItemInput{RequestItems: pending})
			if err != nil {
				return nil, fmt.Errorf("store: batch get: %w", err)
			}
			now := t.now()
			for _, av := range out.Responses[t.name] {
				it, err := unmarshalItem(av)
				if err != nil {
					return nil, err
				}
				if !it.Expired(now) {
					byKey[it.Key()] = it
				}
			}
			pending = out.UnprocessedKeys
		}
	}
	items := make([]store.Item, len(keys))
	for i, k := range keys {
		items[i] = byKey[k]
	}
	return items, nil
}
