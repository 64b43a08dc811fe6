print("policy-bench")
