# Sourced by measure.sh (and by the tests, which call it with made-up counts): the budget check of one path.
#   check_budget BUDGETS PATH COUNT   prints one line saying how COUNT compares with PATH's budget in the file BUDGETS;
#                                     returns 0 within the budget, 1 over it, 2 when the file has no budget for PATH
check_budget() {
    local budgets="$1" path="$2" count="$3" budget
    budget=$(awk -v p="$path" '$1 == p && NF >= 2 { print $2; exit }' "$budgets")
    if ! [[ "$budget" =~ ^[0-9]+$ ]]; then
        echo "budget: $budgets has no budget for the $path path (a line '$path <instructions>')"
        return 2
    fi
    if [ "$count" -gt "$budget" ]; then
        echo "budget: the $path path costs $count instructions per message, over its budget of $budget by $((count - budget)) ($budgets)"
        return 1
    fi
    echo "budget: the $path path costs $count instructions per message, within its budget of $budget"
}
